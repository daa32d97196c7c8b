// Goal (issue 18): searching a member's conversation history answers with p99 under 50 ms for a
// member with 100,000 messages among 10,000,000 in all (SQLite).
//
// A bulk loader fills a migrated database straight through better-sqlite3 (large transactions;
// the migration's triggers index each message as it is inserted, as they do in production):
// 5,000 members with 20-message conversations in 20 rooms, their histories interleaved in time, mixed Chinese and English text of
// varied length (short questions, longer answers), and one member, "searcher", with 100,000
// messages in 5,000 conversations (60% of them in one room). Then, through the running built
// server, one client searches as the member types: common, rare, Chinese, mixed, 1-2 character
// and absent words, all rooms, first page and the next two by cursor; p50/p95/p99 each.
// The peer in the same run: the old search (`aigc/conversation/search`, LIKE, one room: the
// member's busiest) with the same words.
// BENCH_SEARCH_MESSAGES overrides the size (the member keeps 1% of it, at least 100,000 at
// full size); BENCH_SEARCH_KEEP=1 keeps the loaded data folder and BENCH_SEARCH_REUSE=<folder>
// measures it again without loading; BENCH_SEARCH_REQUESTS: requests per word and page.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { printTable, prng, root, saveResult, startAtrium } from './lib.mjs';
import { percentile, request, xsrf } from './upload-lib.mjs';

const totalMessages = Number(process.env.BENCH_SEARCH_MESSAGES ?? 10_000_000);
const memberMessages = Math.max(1000, Math.round(totalMessages / 100));
const perConversation = 20;
const memberCount = 5000;
const roomCount = 20;
const requestsPerCase = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const goalP99Ms = 50;
const password = 'bench-Search-pass-42';

const english = [
  'how do I',
  'the database',
  'index',
  'query is slow',
  'please explain',
  'React component',
  'TypeScript types',
  'deploy to production',
  'error message',
  'write a function',
  'unit test',
  'performance',
  'memory leak',
  'the server returns',
  'thank you',
  'could you summarise',
  'the report',
  'meeting notes',
  'customer feedback',
  'travel plan',
  'recipe for dinner',
  'translate this',
  'in Python',
  'a short poem about autumn',
  'marketing email',
  'budget for next quarter',
  'AI model',
  'step by step',
  'for example',
  'however',
  'in summary',
];
const chinese = [
  '请帮我',
  '数据库',
  '索引',
  '查询很慢',
  '解释一下',
  '组件',
  '类型',
  '部署到生产环境',
  '错误信息',
  '写一个函数',
  '单元测试',
  '性能优化',
  '内存泄漏',
  '服务器返回',
  '谢谢',
  '总结一下',
  '季度报告',
  '会议纪要',
  '客户反馈',
  '旅行计划',
  '晚饭做什么',
  '翻译这段话',
  '用Python',
  '写一首关于秋天的诗',
  '营销邮件',
  '下季度预算',
  '人工智能',
  '一步一步',
  '例如',
  '但是',
  '总之',
];
/** Rare words: one message in about 20,000 holds one (the member has a handful of each). */
const rare = ['kubernetes operator', '量子纠缠', 'zeppelin'];

function sentence(random, words) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const zh = random() < 0.5;
  const parts = [];
  let length = 0;
  while (length < words) {
    const part = zh ? pick(chinese) : pick(english);
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(zh ? '，' : ' ') + (zh ? '。' : '.');
}

/** A message's text: questions of 10-80 characters, answers of 40-260, a few long ones. */
function composeText(random, role) {
  const target =
    role === 'user'
      ? 10 + Math.floor(random() * 70)
      : 40 + Math.floor(random() * (random() < 0.05 ? 1200 : 220));
  let text = '';
  while (text.length < target) text += (text ? ' ' : '') + sentence(random, 20 + random() * 40);
  return text;
}

/** Texts composed once and drawn from (composing each of 10 million would take longer). */
const poolSize = 50_000;
const pools = (() => {
  const random = prng(7);
  return {
    user: Array.from({ length: poolSize }, () => composeText(random, 'user')),
    assistant: Array.from({ length: poolSize }, () => composeText(random, 'assistant')),
  };
})();

/** A message's text; one in about 20,000 holds a rare word (the member has a handful of each). */
function messageText(random, role) {
  const text = pools[role][Math.floor(random() * poolSize)];
  if (random() >= 1 / 20_000) return text;
  const at = Math.floor(random() * text.length);
  return `${text.slice(0, at)} ${rare[Math.floor(random() * rare.length)]} ${text.slice(at)}`;
}

async function bulkLoad(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -400000');
  const now = Date.now() - totalMessages;
  const searcherHash = await hash(password);
  const addRoom = db.prepare(
    'insert into chat_rooms (title, created_at, updated_at) values (?, ?, ?)',
  );
  const addMember = db.prepare(
    'insert into members (username, password_hash, created_at, updated_at) values (?, ?, ?, ?)',
  );
  const addConversation = db.prepare(
    `insert into chat_conversations (room_id, member_id, title, created_at, updated_at)
     values (?, ?, ?, ?, ?)`,
  );
  const addMessage = db.prepare(
    `insert into chat_messages (conversation_id, parent_id, role, content, images, status, error, created_at, updated_at)
     values (?, ?, ?, ?, '[]', 'done', '', ?, ?)`,
  );
  const rooms = db.transaction(() =>
    Array.from({ length: roomCount }, (_, r) =>
      Number(addRoom.run(`Room ${r + 1}`, now, now).lastInsertRowid),
    ),
  )();
  const random = prng(42);
  const searcherAt = Math.floor(memberCount / 2);
  const others = totalMessages - memberMessages;
  const members = db.transaction(() =>
    Array.from({ length: memberCount }, (_, i) => {
      const searcher = i === searcherAt;
      const quota = searcher
        ? memberMessages
        : Math.floor(((i + 1) * others) / memberCount) - Math.floor((i * others) / memberCount);
      const id = Number(
        addMember.run(searcher ? 'searcher' : `member${i}`, searcher ? searcherHash : 'x', now, now)
          .lastInsertRowid,
      );
      return { id, searcher, quota, left: quota };
    }),
  )();
  const searcherId = members[searcherAt].id;
  let clock = now;
  let written = 0;
  // Members take turns over `rounds` stretches of time, each writing its share of its messages
  // in each: everyone's history spreads over the whole id range, as it does in use. Message ids
  // (and the FTS rowids, id * 2^24 + member) arrive in ascending order.
  const rounds = 100;
  for (let round = 0; round < rounds; round += 1) {
    db.transaction(() => {
      for (const member of members) {
        let share =
          round === rounds - 1
            ? member.left
            : Math.min(member.left, Math.round(member.quota / rounds));
        while (share > 0) {
          const room = member.searcher
            ? random() < 0.6
              ? rooms[0]
              : rooms[1 + Math.floor(random() * 4)]
            : rooms[Math.floor(random() * rooms.length)];
          const title = messageText(random, 'user').slice(0, 40);
          const conversation = Number(
            addConversation.run(room, member.id, title, clock, clock + perConversation)
              .lastInsertRowid,
          );
          let parent = null;
          const count = Math.min(perConversation, share);
          for (let k = 0; k < count; k += 1) {
            const role = k % 2 === 0 ? 'user' : 'assistant';
            clock += 1;
            parent = Number(
              addMessage.run(conversation, parent, role, messageText(random, role), clock, clock)
                .lastInsertRowid,
            );
          }
          share -= count;
          member.left -= count;
          written += count;
        }
      }
    })();
    if (round % 10 === 0) console.log(`  ${written} messages`);
  }
  console.log('merging the index');
  db.exec("insert into chat_message_fts (chat_message_fts) values ('optimize')");
  db.exec("insert into chat_title_fts (chat_title_fts) values ('optimize')");
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return { searcherId, mainRoom: rooms[0] };
}

/** A history loaded before (BENCH_SEARCH_REUSE=<data dir>, kept by BENCH_SEARCH_KEEP=1). */
function loaded(file) {
  const db = new Database(file, { readonly: true });
  const searcherId = db.prepare("select id from members where username = 'searcher'").get().id;
  const mainRoom = db
    .prepare(
      'select room_id as id from chat_conversations where member_id = ? group by room_id order by count(*) desc limit 1',
    )
    .get(searcherId).id;
  db.close();
  return { searcherId, mainRoom };
}

const reuse = process.env.BENCH_SEARCH_REUSE;
const dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'atrium-bench-search-'));
const dbFile = join(dataDir, 'atrium.db');
if (!reuse) {
  const migrate = spawnSync(process.execPath, [join(root, 'apps/server/dist/main.js'), 'migrate'], {
    env: { PATH: process.env.PATH, ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrate failed: ${migrate.stderr}`);
}
const loadStart = Date.now();
const { searcherId, mainRoom } = reuse ? loaded(dbFile) : await bulkLoad(dbFile);
const loadSeconds = (Date.now() - loadStart) / 1000;
const counts = (() => {
  const db = new Database(dbFile, { readonly: true });
  const all = db.prepare('select max(id) as n from chat_messages').get().n;
  const mine = db
    .prepare(
      'select count(*) as n from chat_messages m join chat_conversations c on c.id = m.conversation_id where c.member_id = ?',
    )
    .get(searcherId).n;
  db.close();
  return { all, mine };
})();
console.log(
  `${reuse ? 'reusing' : 'loaded'} ${counts.all} messages (the member: ${counts.mine}) ${reuse ? '' : `in ${loadSeconds.toFixed(0)} s`}`,
);
if (process.env.BENCH_SEARCH_KEEP === '1') console.log(`kept in ${dataDir}`);

const server = await startAtrium({ ATRIUM_DATA_DIR: dataDir });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const baseHeaders = {
  'content-type': 'application/json',
  'is-ajax': 'true',
  cookie: `XSRF-TOKEN=${xsrf}`,
  'x-xsrf-token': xsrf,
};

async function call(path, body, token) {
  const start = process.hrtime.bigint();
  const res = await request(agent, {
    port: server.port,
    path,
    headers: token ? { ...baseHeaders, 'api-token': token } : baseHeaders,
    body: [Buffer.from(JSON.stringify(body))],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const json = JSON.parse(res.body.toString());
  if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
  return { ms, data: json.data };
}

/** What members type: [label, words]. */
const words = [
  ['common English', 'database'],
  ['common Chinese', '数据库'],
  ['two words', 'memory leak'],
  ['mixed', '性能优化 react'],
  ['rare English', 'zeppelin'],
  ['rare Chinese', '量子纠缠'],
  ['short (2 characters)', 'AI'],
  ['short Chinese (2 characters)', '例如'],
  ['absent', 'xylophone'],
];

const rows = [];
const peers = [];
let failures = 0;
const row = (query, list, extra = {}) => {
  const ordered = [...list].sort((a, b) => a - b);
  return {
    query,
    requests: ordered.length,
    p50ms: +percentile(ordered, 50).toFixed(2),
    p95ms: +percentile(ordered, 95).toFixed(2),
    p99ms: +percentile(ordered, 99).toFixed(2),
    ...extra,
  };
};
const all = [];
try {
  const token = (await call('/api/auth/login', { username: 'searcher', password })).data.token;
  for (const [label, keywords] of words) {
    const pages = [[], [], []];
    let hits = 0;
    // Warm-up: a few rounds first, unrecorded.
    for (let i = 0; i < requestsPerCase + 5; i += 1) {
      let before;
      for (let page = 0; page < 3; page += 1) {
        const body = before === undefined ? { keywords } : { keywords, before };
        const answer = await call('/api/aigc/conversation/search_all', body, token).catch(() => {
          failures += 1;
          return undefined;
        });
        if (!answer) break;
        if (i >= 5) pages[page].push(answer.ms);
        if (page === 0) hits = answer.data.records.length + answer.data.titles.length;
        before = answer.data.next ?? undefined;
        if (before === undefined) break;
      }
    }
    const times = pages.flat();
    all.push(...times);
    rows.push(
      row(label, times, {
        keywords,
        firstPageHits: hits,
        pagesMeasured: pages.map((p) => p.length),
      }),
    );
    const peer = [];
    for (let i = 0; i < Math.min(requestsPerCase, 50) + 2; i += 1) {
      const answer = await call(
        '/api/aigc/conversation/search',
        { roomId: mainRoom, keywords },
        token,
      ).catch(() => {
        failures += 1;
        return undefined;
      });
      if (answer && i >= 2) peer.push(answer.ms);
    }
    peers.push(row(`old LIKE, one room: ${label}`, peer, { keywords }));
  }
} finally {
  agent.destroy();
  await server.stop();
  if (!reuse && process.env.BENCH_SEARCH_KEEP !== '1')
    rmSync(dataDir, { recursive: true, force: true });
}

const overall = row('all words, pages 1-3', all);
printTable([...rows, overall]);
printTable(peers);
const pass = overall.p99ms < goalP99Ms && failures === 0;
saveResult('chat-search', {
  messages: counts.all,
  memberMessages: counts.mine,
  members: memberCount,
  rooms: roomCount,
  loadSeconds: reuse ? undefined : loadSeconds,
  clients: 1,
  goalP99Ms,
  p50ms: overall.p50ms,
  p95ms: overall.p95ms,
  p99ms: overall.p99ms,
  byWords: rows,
  peer: {
    what: "the old search (aigc/conversation/search): lower(x) like, one room (the member's busiest, 60% of the messages)",
    byWords: peers,
  },
  failures,
  pass,
});
console.log(
  `chat search: p50 ${overall.p50ms} ms, p95 ${overall.p95ms} ms, p99 ${overall.p99ms} ms ${pass ? 'OK' : 'BELOW GOAL'}`,
);
if (!pass) process.exitCode = 1;
