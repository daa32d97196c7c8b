// Budgets (DESIGN 10):
//  1. Streaming through Atrium adds at most 10 ms (p50) to the first-token latency of calling
//     the provider directly. Both are measured from the same client against the same scripted
//     OpenAI-compatible server: directly (POST /v1/chat/completions, stream) and through Atrium
//     (POST aigc/chat/send, then aigc/chat/stream), each until the first content token.
//  2. Issue 32, goal 4: one instance carries 1,000 concurrent answers at 20 tokens/s each
//     (chat-streams-lib.mjs): every token delivered, added per-token latency p99 <= 50 ms
//     against reading the provider directly, Atrium's CPU <= 3x the provider process's, RSS <=
//     400 MiB, and app/config's p99 <= 50 ms meanwhile.
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
import {
  concurrentAnswers,
  coresSpent,
  machineLine,
  startProvider,
  streamChecks,
} from './chat-streams-lib.mjs';

const LATENCY_RUNS = Number(process.env.CHAT_BENCH_RUNS ?? 200);
const WARMUP = 20;
const STREAMS = Number(process.env.CHAT_BENCH_STREAMS ?? 1000);
const STREAM_SECONDS = Number(process.env.CHAT_BENCH_SECONDS ?? 15);
const ADDED_BUDGET_MS = 10;

const { startFakeOpenAi } = await tsImport(
  '../apps/server/src/testing/fake-openai.ts',
  import.meta.url,
);

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

  // ---- 2. 1,000 concurrent answers at 20 tokens/s (issue 32, goal 4) ----------------------
  const provider = await startProvider();
  let answers;
  try {
    const seeded = await seedChatRoom(base, {
      adminPassword: server.adminPassword,
      providerUrl: provider.url,
      unlimited: true,
      members: ['streamer'],
    });
    answers = await concurrentAnswers({
      base,
      member: seeded.members.streamer,
      room: seeded.room,
      provider,
      atriumPid: server.pid,
      count: STREAMS,
      seconds: STREAM_SECONDS,
    });
  } finally {
    await provider.stop();
  }
  const { direct: directly, through, idleRss } = answers;
  const { addedP99, checks: common } = streamChecks(directly, through, STREAMS);
  const [atriumCpu, providerCpu] = through.cpuSeconds;
  const cpuRatio = +(atriumCpu / providerCpu).toFixed(2);
  printTable([
    {
      path: 'provider directly',
      ...directly.lateMs,
      tokens: `${directly.tokensDelivered} / ${directly.tokensExpected}`,
    },
    {
      path: 'through Atrium',
      ...through.lateMs,
      tokens: `${through.tokensDelivered} / ${through.tokensExpected}`,
    },
  ]);
  const checks = [
    ...common,
    {
      goal: "Atrium CPU <= 3x the provider's",
      value: `${atriumCpu} / ${providerCpu} CPU s = ${cpuRatio}x`,
      pass: cpuRatio <= 3,
    },
    { goal: 'RSS <= 400 MiB', value: through.rssMaxMiB, pass: through.rssMaxMiB <= 400 },
  ];
  printTable(checks);
  const streamsPass = checks.every((c) => c.pass);
  console.log(
    `${STREAMS} concurrent answers: ${streamsPass ? 'OK' : 'MISSED'} (open ${through.openSeconds} s)`,
  );
  console.log(machineLine(directly, through));
  const spent = coresSpent(through, availableParallelism(), ['Atrium', 'provider']);
  console.log(`cores spent, through Atrium: ${JSON.stringify(spent)}`);
  result.concurrentStreams = {
    streams: STREAMS,
    tokensPerSecond: 20,
    seconds: STREAM_SECONDS,
    direct: directly,
    through,
    rssIdleMiB: idleRss,
    addedLatencyP99Ms: addedP99,
    cpuRatio,
    coresSpent: spent,
    checks,
    pass: streamsPass,
  };
  saveResult('chat', result);
  if (!latencyPass || !streamsPass) process.exitCode = 1;
} finally {
  await server.stop();
  await fake.close();
  rmSync(server.dataDir, { recursive: true, force: true });
}
