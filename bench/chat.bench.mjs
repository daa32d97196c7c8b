// Budgets (DESIGN 10):
//  1. Streaming through Atrium adds at most 10 ms (p50) to the first-token latency of calling
//     the provider directly. Both are measured from the same client against the same scripted
//     OpenAI-compatible server: directly (POST /v1/chat/completions, stream) and through Atrium
//     (POST aigc/chat/send, then aigc/chat/stream), each until the first content token.
//  2. One instance holds 1,000 concurrent streams: 1,000 answers trickling one token a second,
//     each followed by an SSE client. Every client must receive tokens; the instance's memory
//     (RSS) is reported, and it must still answer other calls quickly.
import { readFileSync, rmSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';
import {
  apiCall,
  apiHeaders,
  latencyStats,
  printTable,
  saveResult,
  seedChatRoom,
  startAtrium,
} from './lib.mjs';

const LATENCY_RUNS = Number(process.env.CHAT_BENCH_RUNS ?? 200);
const WARMUP = 20;
const STREAMS = Number(process.env.CHAT_BENCH_STREAMS ?? 1000);
const ADDED_BUDGET_MS = 10;

const { startFakeOpenAi } = await tsImport(
  '../apps/server/src/testing/fake-openai.ts',
  import.meta.url,
);

const rssMiB = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return +(kb / 1024).toFixed(1);
};

/** Reads an SSE body: resolves at the first event matching `until`, then keeps the socket or cancels it. */
async function readEvents(res, { onFirstDelta, keepOpen, onDelta }) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let first = true;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const isDelta = block.includes('event: delta') || /"content":"[^"]/.test(block);
      if (!isDelta) continue;
      onDelta?.();
      if (first) {
        first = false;
        onFirstDelta?.();
        if (!keepOpen) {
          await reader.cancel();
          return;
        }
      }
    }
  }
}

const fake = await startFakeOpenAi({ models: ['bench-model'] });
const server = await startAtrium();
const base = server.url.replace(/\/$/, '');
const result = {};
try {
  const { room, members } = await seedChatRoom(base, {
    adminPassword: server.adminPassword,
    providerUrl: fake.url,
    unlimited: true,
    members: ['bencher'],
  });
  const member = members.bencher;
  const memberHeaders = apiHeaders(member);

  // ---- 1. first-token latency -------------------------------------------------------------
  fake.setDefault({
    text: 'Hello from the scripted model: a short answer of a dozen tokens or so.',
  });
  const direct = async () => {
    const started = performance.now();
    const res = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: JSON.stringify({
        model: 'bench-model',
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
    let at = 0;
    await readEvents(res, { onFirstDelta: () => (at = performance.now() - started) });
    return at;
  };
  const conversations = [];
  for (let i = 0; i < LATENCY_RUNS + WARMUP; i++) {
    conversations.push(
      await apiCall(base, '/api/aigc/conversation/create', { roomId: room.id }, member),
    );
  }
  const sendMs = [];
  const viaAtrium = async (conversation) => {
    const started = performance.now();
    const sent = await apiCall(
      base,
      '/api/aigc/chat/send',
      { conversationId: conversation.id, content: 'Hi' },
      member,
    );
    sendMs.push(performance.now() - started);
    const res = await fetch(`${base}/api/aigc/chat/stream`, {
      method: 'POST',
      headers: memberHeaders,
      body: JSON.stringify({ messageId: sent.assistantMessage.id, offset: 0 }),
    });
    let at = 0;
    await readEvents(res, { onFirstDelta: () => (at = performance.now() - started) });
    return at;
  };
  const directMs = [];
  const atriumMs = [];
  for (let i = 0; i < LATENCY_RUNS + WARMUP; i++) {
    // Interleaved, so both see the same machine load.
    const d = await direct();
    const a = await viaAtrium(conversations[i]);
    if (i >= WARMUP) {
      directMs.push(d);
      atriumMs.push(a);
    }
  }
  const d = latencyStats(directMs);
  const a = latencyStats(atriumMs);
  const addedP50 = +(a.p50 - d.p50).toFixed(2);
  printTable([
    { path: 'provider directly', ...d },
    { path: 'through Atrium (send + stream)', ...a },
    {
      path: 'added',
      p50: addedP50,
      p95: +(a.p95 - d.p95).toFixed(2),
      mean: +(a.mean - d.mean).toFixed(2),
    },
    { path: '  of which: the send call', ...latencyStats(sendMs.slice(WARMUP)) },
  ]);
  const latencyPass = addedP50 <= ADDED_BUDGET_MS;
  console.log(
    `first token: +${addedP50} ms at p50 through Atrium (budget ${ADDED_BUDGET_MS} ms) ${latencyPass ? 'OK' : 'OVER BUDGET'}`,
  );
  result.firstToken = {
    runs: LATENCY_RUNS,
    directMs: d,
    atriumMs: a,
    sendCallMs: latencyStats(sendMs.slice(WARMUP)),
    addedP50Ms: addedP50,
    budgetMs: ADDED_BUDGET_MS,
    pass: latencyPass,
  };

  // ---- 2. 1,000 concurrent streams ---------------------------------------------------------
  await new Promise((r) => setTimeout(r, 500));
  const idleRss = rssMiB(server.pid);
  const longText = Array.from({ length: 120 }, (_, i) => `token${i}`).join(' ');
  fake.setDefault({ text: longText, delayMs: 1000, hang: true });
  const many = [];
  for (let i = 0; i < STREAMS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, STREAMS - i) }, () =>
        apiCall(base, '/api/aigc/conversation/create', { roomId: room.id }, member),
      ),
    );
    many.push(...batch);
  }
  let receiving = 0;
  let deltas = 0;
  const streams = [];
  const openedAt = performance.now();
  for (let i = 0; i < many.length; i += 50) {
    await Promise.all(
      many.slice(i, i + 50).map(async (conversation) => {
        const sent = await apiCall(
          base,
          '/api/aigc/chat/send',
          { conversationId: conversation.id, content: 'Stay a while' },
          member,
        );
        const res = await fetch(`${base}/api/aigc/chat/stream`, {
          method: 'POST',
          headers: memberHeaders,
          body: JSON.stringify({ messageId: sent.assistantMessage.id, offset: 0 }),
        });
        streams.push({
          id: sent.assistantMessage.id,
          done: readEvents(res, {
            keepOpen: true,
            onFirstDelta: () => receiving++,
            onDelta: () => deltas++,
          }).catch(() => {}),
        });
      }),
    );
  }
  const deadline = Date.now() + 60_000;
  while (receiving < STREAMS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const openSec = +((performance.now() - openedAt) / 1000).toFixed(1);
  // Let every stream carry a few more tokens while the memory settles.
  await new Promise((r) => setTimeout(r, 5_000));
  const loadedRss = rssMiB(server.pid);
  const upstreamOpen = fake.completions().filter((r) => !r.finished && !r.aborted).length;
  const probe = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await apiCall(base, '/api/app/config', {}, member);
    probe.push(performance.now() - started);
  }
  const configMs = latencyStats(probe);
  const deltasBefore = deltas;
  await new Promise((r) => setTimeout(r, 2_000));
  const deltasPerSec = Math.round((deltas - deltasBefore) / 2);
  const perStreamKiB = +(((loadedRss - idleRss) * 1024) / STREAMS).toFixed(1);
  printTable([
    { measure: 'streams receiving tokens', value: `${receiving} / ${STREAMS}` },
    { measure: 'upstream requests open', value: upstreamOpen },
    { measure: 'time to open all (s)', value: openSec },
    { measure: 'tokens delivered per second', value: deltasPerSec },
    { measure: 'RSS idle (MiB)', value: idleRss },
    { measure: `RSS with ${STREAMS} streams (MiB)`, value: loadedRss },
    { measure: 'RSS per stream (KiB)', value: perStreamKiB },
    { measure: 'app/config p50 under load (ms)', value: configMs.p50 },
  ]);
  const streamsPass = receiving === STREAMS && upstreamOpen >= STREAMS && configMs.p50 < 100;
  console.log(
    `${STREAMS} concurrent streams: ${streamsPass ? 'OK' : 'FAILED'} (${loadedRss} MiB RSS)`,
  );
  result.concurrentStreams = {
    streams: STREAMS,
    receiving,
    upstreamOpen,
    openSeconds: openSec,
    deltasPerSecond: deltasPerSec,
    rssIdleMiB: idleRss,
    rssLoadedMiB: loadedRss,
    rssPerStreamKiB: perStreamKiB,
    appConfigUnderLoadMs: configMs,
    pass: streamsPass,
  };
  saveResult('chat', result);
  if (!latencyPass || !streamsPass) process.exitCode = 1;
} finally {
  await server.stop();
  await fake.close();
  rmSync(server.dataDir, { recursive: true, force: true });
}
