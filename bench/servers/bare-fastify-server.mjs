// The peer of the app-config bench: a bare Fastify 5 route that takes a JSON body and answers
// the same bytes every time (CANNED_BODY, a real answer of Atrium's cheapest signed-in call), so
// what Atrium adds to the framework it runs on shows as a ratio in the same run.
import Fastify from 'fastify';

const body = Buffer.from(process.env.CANNED_BODY ?? '{"code":0,"msg":"","data":null}');
const app = Fastify({ logger: false });
app.post('/*', async (_req, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return body;
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${new URL(address).port}`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
