// The floor of the list bench: a bare node:http server that reads each JSON body and answers
// the same bytes every time (CANNED_BODY, a real answer of Atrium's `list`), so the bench can
// show what its client and this machine allow before any server does any work.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.CANNED_BODY ?? '{"code":0,"msg":"","data":null}');
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    JSON.parse(Buffer.concat(parts).toString() || '{}');
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
