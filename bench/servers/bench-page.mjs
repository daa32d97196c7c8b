// The page of the browser upload bench, served by the bench servers themselves so the browser
// uploads to them from their own origin, as Atrium's page does to Atrium: no CORS preflight before
// each request. `/bench/` is a file input and a progress line; `/bench/tus.min.js` is
// tus-js-client's browser bundle when it is installed. Anything else is left to the server.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>upload bench</title>
<script src="/bench/tus.min.js"></script></head>
<body><input type="file" id="file"><div id="progress"></div></body></html>
`;

let client;
try {
  client = readFileSync(createRequire(import.meta.url).resolve('tus-js-client/dist/tus.min.js'));
} catch {
  client = undefined;
}

/** Answers the bench page's requests; false for any other request. */
export function serveBenchPage(req, res) {
  if (req.method !== 'GET') return false;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/bench/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
    return true;
  }
  if (path === '/bench/tus.min.js') {
    if (client) res.writeHead(200, { 'content-type': 'text/javascript' }).end(client);
    else res.writeHead(404).end();
    return true;
  }
  return false;
}
