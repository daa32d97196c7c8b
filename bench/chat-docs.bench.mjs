// Budget (issue 18, documents as chat context): retrieval adds at most 30 ms (p50) to the
// first-token latency of a conversation holding 20 documents of 100 pages each, against the same
// kind of conversation without documents, in the same run (the chat bench's harness: the built
// server, the scripted OpenAI-compatible provider, send + stream until the first content token).
//
// The 20 PDFs (100 pages of about 1,800 characters each, written by doc-fixtures.mjs) are
// uploaded to the member's library and read once; each measured conversation then attaches all
// 20 (already read: attaching is instant) and asks a question whose words many passages hold.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
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

const RUNS = Number(process.env.CHAT_DOCS_BENCH_RUNS ?? 100);
const WARMUP = Math.min(10, RUNS);
// Smaller runs for a quick check of the bench itself; the budget is for 20 × 100.
const DOCUMENTS = Number(process.env.CHAT_DOCS_BENCH_DOCUMENTS ?? 20);
const PAGES = Number(process.env.CHAT_DOCS_BENCH_PAGES ?? 100);
const BUDGET_MS = 30;

const { startFakeOpenAi } = await tsImport(
  '../apps/server/src/testing/fake-openai.ts',
  import.meta.url,
);
const { makePdf } = await import('../apps/server/src/testing/doc-fixtures.mjs');

/** Uploads a file to the member's file library (init, its chunks, save); answers its path. */
async function upload(base, token, name, data) {
  const url = `${base}/member_data/file_manager/file`;
  const md5 = createHash('md5').update(data).digest('hex');
  const init = await apiCall(
    base,
    '/member_data/file_manager/file',
    { action: 'init', name, type: 'application/pdf', size: data.length, md5 },
    token,
  );
  let path = init.path;
  for (let i = init.chunkUploaded; !path && i < init.chunks; i++) {
    const form = new FormData();
    const fields = {
      id: 'WU_FILE_0',
      name,
      type: 'application/pdf',
      size: String(data.length),
      chunks: String(init.chunks),
      chunk: String(i),
      md5,
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const part = data.subarray(i * init.chunkSize, (i + 1) * init.chunkSize);
    form.append('file', new Blob([new Uint8Array(part)]), name);
    const res = await fetch(url, {
      method: 'POST',
      headers: apiHeaders(token, 'member', { json: false }),
      body: form,
    });
    const json = await res.json();
    if (json.code !== 0) throw new Error(`upload ${name}: ${json.msg}`);
    path = json.data.path;
  }
  await apiCall(
    base,
    '/member_data/file_manager/file',
    { action: 'save', path, name, size: data.length, categoryId: 0 },
    token,
  );
  return path;
}

/** Deterministic words: a shared vocabulary, so a question's words occur in many passages. */
function pageText(doc, page) {
  const vocabulary = [
    'harvest',
    'valley',
    'river',
    'budget',
    'report',
    'northern',
    'quarterly',
    'survey',
    'station',
    'turbine',
    'orchard',
    'ledger',
    'migration',
    'archive',
    'forecast',
    'harbor',
    'lantern',
    'granite',
    'meadow',
    'census',
    'voltage',
    'glacier',
    'compass',
    'timber',
  ];
  let seed = doc * 1_000 + page;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed;
  };
  const lines = [];
  let length = 0;
  while (length < 1_800) {
    const words = Array.from({ length: 12 }, () => vocabulary[next() % vocabulary.length]);
    const line = `${words.join(' ')} ${doc}-${page}-${lines.length}.`;
    lines.push(line);
    length += line.length;
  }
  return lines;
}

/** Reads SSE until the first content delta. */
async function firstDelta(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    if (buffer.includes('event: delta')) {
      await reader.cancel();
      return;
    }
  }
}

const fake = await startFakeOpenAi({ models: ['bench-model'] });
fake.setDefault({ text: 'A short answer citing [1] and [2], a dozen tokens or so.' });
const atrium = await startAtrium();
const base = atrium.url.replace(/\/$/, '');
try {
  const { room, members } = await seedChatRoom(base, {
    adminPassword: atrium.adminPassword,
    providerUrl: fake.url,
    modelFields: { contextLength: 128_000 },
    unlimited: true,
    members: ['reader'],
  });
  const member = members.reader;

  // ---- the documents: uploaded, attached once and read --------------------------------------
  const paths = [];
  let bytes = 0;
  for (let doc = 0; doc < DOCUMENTS; doc++) {
    const pdf = makePdf(Array.from({ length: PAGES }, (_, page) => pageText(doc, page)));
    bytes += pdf.length;
    paths.push(await upload(base, member, `document-${doc + 1}.pdf`, pdf));
  }
  const first = await apiCall(base, '/api/aigc/conversation/create', { roomId: room.id }, member);
  const readStarted = performance.now();
  await apiCall(base, '/api/aigc/document/attach', { conversationId: first.id, paths }, member);
  let ready;
  for (;;) {
    const { records } = await apiCall(
      base,
      '/api/aigc/document/list',
      { conversationId: first.id },
      member,
    );
    if (records.some((r) => r.status === 'failed'))
      throw new Error(`a document failed: ${records.find((r) => r.status === 'failed').error}`);
    if (records.every((r) => r.status === 'done')) {
      ready = records;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const readSeconds = +((performance.now() - readStarted) / 1000).toFixed(1);
  const passages = ready.reduce((n, r) => n + r.passages, 0);
  console.log(
    `${DOCUMENTS} documents × ${PAGES} pages (${(bytes / 1024 / 1024).toFixed(1)} MiB) read in ${readSeconds} s: ${passages} passages`,
  );

  // ---- first-token latency with and without documents, interleaved --------------------------
  const question = 'What does the quarterly report say about the harvest in the northern valley?';
  const measure = async (withDocuments) => {
    const conversation = await apiCall(
      base,
      '/api/aigc/conversation/create',
      { roomId: room.id },
      member,
    );
    if (withDocuments)
      await apiCall(
        base,
        '/api/aigc/document/attach',
        { conversationId: conversation.id, paths },
        member,
      );
    const started = performance.now();
    const sent = await apiCall(
      base,
      '/api/aigc/chat/send',
      { conversationId: conversation.id, content: question },
      member,
    );
    const res = await fetch(`${base}/api/aigc/chat/stream`, {
      method: 'POST',
      headers: apiHeaders(member),
      body: JSON.stringify({ messageId: sent.assistantMessage.id, offset: 0 }),
    });
    await firstDelta(res);
    return performance.now() - started;
  };
  const withMs = [];
  const withoutMs = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const w = await measure(true);
    const o = await measure(false);
    if (i >= WARMUP) {
      withMs.push(w);
      withoutMs.push(o);
    }
  }
  // The model was given passages (and within the cap) in the runs with documents.
  const given = fake
    .completions()
    .filter((r) => JSON.stringify(r.body).includes('cite each passage')).length;

  const w = latencyStats(withMs);
  const o = latencyStats(withoutMs);
  const addedP50 = +(w.p50 - o.p50).toFixed(2);
  const addedP95 = +(w.p95 - o.p95).toFixed(2);
  printTable([
    { conversation: 'without documents', ...o },
    { conversation: `with ${DOCUMENTS} documents × ${PAGES} pages`, ...w },
    { conversation: 'added', p50: addedP50, p95: addedP95, mean: +(w.mean - o.mean).toFixed(2) },
  ]);
  const pass = addedP50 <= BUDGET_MS && given >= RUNS;
  console.log(
    `retrieval: +${addedP50} ms at p50, +${addedP95} ms at p95 (budget ${BUDGET_MS} ms); passages given in ${given} answers: ${pass ? 'OK' : 'OVER BUDGET'}`,
  );
  saveResult('chat-docs', {
    documents: DOCUMENTS,
    pagesEach: PAGES,
    megabytes: +(bytes / 1024 / 1024).toFixed(2),
    passages,
    readSeconds,
    runs: RUNS,
    withoutDocumentsMs: o,
    withDocumentsMs: w,
    addedP50Ms: addedP50,
    addedP95Ms: addedP95,
    answersGivenPassages: given,
    budgetMs: BUDGET_MS,
    pass,
  });
  if (!pass) process.exitCode = 1;
} finally {
  await atrium.stop();
  await fake.close();
  rmSync(atrium.dataDir, { recursive: true, force: true });
}
