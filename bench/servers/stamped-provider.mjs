// The chat bench's provider, in its own process so its CPU can be read apart from Atrium's: an
// OpenAI-compatible `POST /v1/chat/completions` (stream) that, once told to go (`POST /go`),
// streams `tokens=N` (from the last user message) token-sized chunks, one every INTERVAL_MS on a
// timer per stream, as the test fake does. Each token's text is `~<ms since epoch> `, stamped as
// it is written, so a client can tell how late it arrives. Ends with usage and [DONE].
import { createServer } from 'node:http';

const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 50);
const now = () => (performance.timeOrigin + performance.now()).toFixed(1);
let waiting = [];
let going = false;
let counter = 0;

function stream(req, res, body) {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : '';
  const total = Number(/tokens=(\d+)/.exec(text)?.[1] ?? 100);
  const id = `chatcmpl-bench-${++counter}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
  let sent = 0;
  let timer;
  // While held, an empty chunk now and then: a provider thinking, not one fallen silent.
  const alive = setInterval(
    () => res.write(chunk([{ index: 0, delta: { content: '' }, finish_reason: null }])),
    5_000,
  );
  res.on('close', () => (clearTimeout(timer), clearInterval(alive)));
  const tick = () => {
    if (res.destroyed) return;
    res.write(chunk([{ index: 0, delta: { content: `~${now()} ` }, finish_reason: null }]));
    if (++sent < total) {
      timer = setTimeout(tick, INTERVAL_MS);
      return;
    }
    res.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
    const usage = { prompt_tokens: 10, completion_tokens: total, total_tokens: 10 + total };
    if (body.stream_options?.include_usage) res.write(chunk([], { usage }));
    res.end('data: [DONE]\n\n');
  };
  // Spread over one interval, so the streams do not tick in lockstep.
  const start = () => {
    clearInterval(alive);
    timer = setTimeout(tick, Math.random() * INTERVAL_MS);
  };
  if (going) start();
  else waiting.push(start);
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    if (req.url === '/go') {
      going = true;
      for (const start of waiting.splice(0)) start();
      res.end('ok');
      return;
    }
    if (req.url === '/hold') {
      going = false;
      res.end('ok');
      return;
    }
    if (req.url?.endsWith('/models')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model' }] }));
      return;
    }
    stream(req, res, JSON.parse(Buffer.concat(parts).toString() || '{}'));
  });
});
server.maxConnections = 20_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
