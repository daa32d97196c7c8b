// @ts-check
// One streamed chat completion read over plain node:http(s) and a line splitter (sse-lines.mjs):
// what the provider reader thread (provider.worker.mjs) runs for each answer. Plain JavaScript,
// checked by the compiler (checkJs), so it runs unchanged from the sources and next to the bundle.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SseLines } from './sse-lines.mjs';

/** Connections to providers are kept for the next answer. */
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

/** The most of an error body read: a provider's error is a short JSON document. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * How a stream failed, as plain data (it crosses from the thread to the instance, which turns
 * it into the SDK's error classes: chat-stream.ts).
 * @typedef {Record<string, string | string[] | undefined>} ResponseHeaders
 * @typedef {{ kind: 'status', status: number, body: string, headers: ResponseHeaders }
 *   | { kind: 'event', error: unknown, headers: ResponseHeaders }
 *   | { kind: 'timeout' }
 *   | { kind: 'connection', message: string }
 *   | { kind: 'terminated' }
 *   | { kind: 'malformed', message: string }} StreamFailure
 * @typedef {{ prompt_tokens: number, completion_tokens: number }} ReportedUsage
 * @typedef {object} StreamCall
 * @property {string} url the provider's `…/chat/completions`
 * @property {Record<string, string | number>} headers
 * @property {string} payload the request's JSON body
 * @property {number} timeoutMs until the response's headers; after them, silence is the caller's
 * @property {AbortSignal} signal ends the stream quietly wherever it lands
 * @property {(content: string | null, usage: ReportedUsage | null) => void} onChunk every chunk,
 *   in order: its first choice's text (null when it has none) and its usage (null when none)
 */

/**
 * Reads the stream until `[DONE]`, the provider closing it, a failure or an abort. Never
 * rejects: resolves with how it failed, or undefined (ended, or aborted).
 * @param {StreamCall} call
 * @returns {Promise<StreamFailure | undefined>}
 */
export function readCompletionStream(call) {
  const url = new URL(call.url);
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    const { signal } = call;
    let settled = false;
    let responded = false;
    /** @param {StreamFailure} [failure] */
    const settle = (failure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(failure);
    };
    const onAbort = () => {
      req.destroy();
      settle();
    };
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      { method: 'POST', agent: secure ? agents.https : agents.http, headers: call.headers },
      (res) => {
        responded = true;
        clearTimeout(timer);
        res.setEncoding('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          let body = '';
          res.on('data', (/** @type {string} */ piece) => {
            if (body.length < ERROR_BODY_LIMIT) body += piece;
          });
          res.on('end', () => settle({ kind: 'status', status, body, headers: res.headers }));
          res.on('error', () => settle({ kind: 'terminated' }));
          return;
        }
        let done = false;
        const lines = new SseLines((data) => {
          if (done || settled) return;
          if (data.startsWith('[DONE]')) {
            done = true;
            // The rest is read, not looked at, so the connection serves the next answer.
            res.resume();
            settle();
            return;
          }
          /** @type {{ error?: unknown, usage?: ReportedUsage, choices?: { delta?: { content?: unknown } }[] }} */
          let chunk;
          try {
            chunk = JSON.parse(data);
          } catch (error) {
            req.destroy();
            settle({ kind: 'malformed', message: error instanceof Error ? error.message : '' });
            return;
          }
          if (chunk?.error) {
            req.destroy();
            settle({ kind: 'event', error: chunk.error, headers: res.headers });
            return;
          }
          const content = chunk?.choices?.[0]?.delta?.content;
          call.onChunk(typeof content === 'string' ? content : null, chunk?.usage ?? null);
        });
        res.on('data', (/** @type {string} */ piece) => {
          if (!settled) lines.feed(piece);
        });
        res.on('end', () => settle());
        // Closed before its end: the provider (or the network) cut the answer off.
        res.on('close', () => settle(res.complete ? undefined : { kind: 'terminated' }));
        res.on('error', () => undefined);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      settle({ kind: 'timeout' });
    }, call.timeoutMs);
    req.on('error', (error) => {
      if (signal.aborted) settle();
      else if (responded) settle({ kind: 'terminated' });
      else settle({ kind: 'connection', message: error.message });
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    req.end(call.payload);
  });
}
