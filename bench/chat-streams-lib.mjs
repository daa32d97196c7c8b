// The chat bench's concurrent answers (issue 32, goal 4): STREAMS answers at 20 tokens/s from a
// provider in its own process (servers/stamped-provider.mjs), read once directly and once
// through Atrium, each phase held until every stream is open, then let go at once. Every token
// carries the time the provider wrote it: its lateness at the client, through Atrium against
// directly, is the latency Atrium adds. CPU of Atrium and of the provider over the same window,
// Atrium's RSS, another call's latency meanwhile, and every token counted.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { apiCall, apiHeaders, root } from './lib.mjs';

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function startProvider() {
  const child = spawn(process.execPath, [join(root, 'bench/servers/stamped-provider.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (!m) return;
      const base = `http://127.0.0.1:${m[1]}`;
      resolve({
        url: `${base}/v1`,
        pid: child.pid,
        go: () => postJson(`${base}/go`, {}),
        hold: () => postJson(`${base}/hold`, {}),
        stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))),
      });
    });
  });
}

function postJson(url, body, headers = { 'content-type': 'application/json' }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * A process's name and the fields of /proc/<pid>/stat after it (state first: utime is [11],
 * stime [12], the reaped children's cutime [13] and cstime [14], in clock ticks).
 */
function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const end = stat.lastIndexOf(')');
  return { name: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') };
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid) {
  const { fields } = procStat(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The machine's CPU time so far, busy, stolen and total, in clock ticks over every core (/proc/stat). */
function machineCpu() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is inside user already).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + steal + idle + iowait };
}

/**
 * CPU seconds used so far by the machine's PostgreSQL and Redis servers: every process of each
 * (by its name in /proc), and on PostgreSQL the backends already gone, which its postmaster
 * reaped (their time moves to its children's count, so a backend ending mid-phase counts once).
 * They share the cores with Atrium, the provider and this client.
 */
export function servicesCpu() {
  const used = { postgres: 0, redis: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = procStat(entry);
    } catch {
      continue; // ended since the listing
    }
    const { name, fields } = stat;
    const service =
      name === 'postgres' ? 'postgres' : name.startsWith('redis-server') ? 'redis' : undefined;
    if (!service) continue;
    used[service] += (+fields[11] + +fields[12] + +fields[13] + +fields[14]) / 100;
  }
  return used;
}

export const rssMiB = (pid) => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return +(kb / 1024).toFixed(1);
};

/**
 * Opens one SSE stream; counts the stamped tokens it carries (lateness pushed to `late` while
 * `measuring()`), resolves `opened` with the response's arrival and `ended` once it closes,
 * with whether an end (done or [DONE]) was seen, and the error event's data if one came.
 */
function follow(url, headers, body, late, measuring) {
  const stream = { tokens: 0, ended: false, closed: false };
  stream.opened = new Promise((resolve, reject) => {
    stream.done = new Promise((resolveDone) => {
      const req = request(url, { method: 'POST', headers, agent }, (res) => {
        resolve();
        res.setEncoding('utf8');
        let rest = '';
        let errorNext = false;
        res.on('data', (text) => {
          const at = clock();
          const lines = (rest + text).split('\n');
          rest = lines.pop();
          for (const line of lines) {
            if (line === 'event: done' || line === 'data: [DONE]') stream.ended = true;
            if (errorNext && line.startsWith('data: ')) stream.error = line.slice(6, 200);
            errorNext = line === 'event: error';
            for (const m of line.matchAll(/~(\d+\.\d)/g)) {
              stream.tokens++;
              if (measuring()) {
                late.push(at - Number(m[1]));
                late.at.push(at);
              }
            }
          }
        });
        res.on('close', () => ((stream.closed = true), resolveDone()));
      });
      req.on('error', (error) => (reject(error), resolveDone()));
      req.end(JSON.stringify(body));
    });
  });
  return stream;
}

const p = (sorted, q) =>
  +(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(1);
const spread = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: p(sorted, 0.5), p99: p(sorted, 0.99), max: p(sorted, 1) };
};

/** The samples' spread in each second after `from` (the times they arrived: `late.at`). */
function bySecond(late, from) {
  const seconds = [];
  late.forEach((value, i) => {
    const second = Math.floor((late.at[i] - from) / 1000);
    (seconds[second] ??= []).push(value);
  });
  // A second in which no token arrived (the last answers' ends) has no entry.
  return [...seconds.entries()]
    .filter(([, values]) => values !== undefined)
    .map(([second, values]) => ({ second, ...spread(values) }));
}

/**
 * One phase: opens `count` streams with `open(i)` (answers the follow arguments), waits until
 * every one is attached, lets the provider go, probes `probe()` meanwhile, and measures.
 */
export async function phase({ count, tokens, provider, open, pids, probe }) {
  await provider.hold();
  // The lateness of every token, and (as `late.at`) when each arrived.
  const late = Object.assign([], { at: [] });
  let measuring = false;
  const streams = [];
  const openedAt = performance.now();
  for (let i = 0; i < count; i += 50) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 50); j++) {
      batch.push(
        open(j).then(([url, headers, body]) => {
          const s = follow(url, headers, body, late, () => measuring);
          streams.push(s);
          return s.opened;
        }),
      );
    }
    await Promise.all(batch);
  }
  const openSeconds = +((performance.now() - openedAt) / 1000).toFixed(1);
  await sleep(1000);
  const cpu0 = pids.map(cpuSeconds);
  const services0 = servicesCpu();
  const client0 = process.cpuUsage();
  const machine0 = machineCpu();
  const t0 = performance.now();
  measuring = true;
  await provider.go();
  const probes = [];
  let rssMax = pids.map(() => 0);
  const windowMs = (tokens / 20) * 1000;
  while (performance.now() - t0 < windowMs) {
    if (pids[0] && probe) {
      const started = performance.now();
      await probe();
      probes.push(performance.now() - started);
    }
    rssMax = rssMax.map((most, i) => Math.max(most, rssMiB(pids[i])));
    await sleep(50);
  }
  // Every token counts for the latency, to the last one of the slowest stream.
  await Promise.race([Promise.all(streams.map((s) => s.done)), sleep(120_000)]);
  measuring = false;
  // CPU from the go to the last token: the same work for every process, however late it ends.
  const seconds = (performance.now() - t0) / 1000;
  const cpuSecondsUsed = pids.map((pid, i) => +(cpuSeconds(pid) - cpu0[i]).toFixed(2));
  const cpu = cpuSecondsUsed.map((used) => +(used / seconds).toFixed(3));
  const client = process.cpuUsage(client0);
  const services = servicesCpu();
  const machine = machineCpu();
  const delivered = streams.reduce((sum, s) => sum + s.tokens, 0);
  // Why the streams that saw no end did not: their error event, or how they stand.
  const unended = {};
  for (const s of streams.filter((one) => !one.ended)) {
    const why = s.error ?? (s.closed ? 'closed without an end' : 'still open');
    unended[why] = (unended[why] ?? 0) + 1;
  }
  return {
    streams: count,
    openSeconds,
    tokensExpected: count * tokens,
    tokensDelivered: delivered,
    streamsEnded: streams.filter((s) => s.ended).length,
    unended,
    lateMs: spread(late),
    // Each second's lateness: a slow spell (a burst of ends, a fold) shows when it came.
    lateBySecond: bySecond(late, performance.timeOrigin + t0),
    seconds: +seconds.toFixed(1),
    cpuSeconds: cpuSecondsUsed,
    cpuCores: cpu,
    // This client's own CPU, and how busy the whole machine was: every process here shares its
    // cores, so a saturated machine makes every token late whoever spent the time.
    clientCpuSeconds: +((client.user + client.system) / 1e6).toFixed(2),
    // The database and Redis servers of the machine, over the same window.
    postgresCpuSeconds: +(services.postgres - services0.postgres).toFixed(2),
    redisCpuSeconds: +(services.redis - services0.redis).toFixed(2),
    machineBusy: +((machine.busy - machine0.busy) / (machine.total - machine0.total)).toFixed(3),
    // Taken by the host from this virtual machine: time no process here could run.
    machineStolen: +((machine.steal - machine0.steal) / (machine.total - machine0.total)).toFixed(
      3,
    ),
    // The first process's (Atrium's, or the provider's alone); then every process's, in order.
    rssMaxMiB: rssMax[0],
    rssMaxMiBEach: rssMax,
    probeMs: probes.length ? spread(probes) : undefined,
  };
}

/** The peer: `count` answers read from the provider directly, by the same client. */
export function directPhase({ provider, count, tokens }) {
  return phase({
    count,
    tokens,
    provider,
    pids: [provider.pid],
    open: async () => [
      `${provider.url}/chat/completions`,
      { 'content-type': 'application/json' },
      {
        model: 'bench-model',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: `tokens=${tokens}` }],
      },
    ],
  });
}

/** Creates `count` conversations in `room` (50 at a time), through the instance at `base`. */
export async function newConversations(base, member, room, count) {
  const conversations = [];
  for (let i = 0; i < count; i += 50) {
    conversations.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, () =>
          apiCall(base, '/api/aigc/conversation/create', { roomId: room.id }, member),
        ),
      )),
    );
  }
  return conversations;
}

/**
 * Asks for an answer on the instance at `sendBase` and follows it from the one at `streamBase`
 * (the follow arguments of `phase`).
 */
export async function askAndFollow(sendBase, streamBase, member, conversation, tokens) {
  const sent = await apiCall(
    sendBase,
    '/api/aigc/chat/send',
    { conversationId: conversation.id, content: `tokens=${tokens}` },
    member,
  );
  return [
    `${streamBase}/api/aigc/chat/stream`,
    apiHeaders(member),
    { messageId: sent.assistantMessage.id, offset: 0 },
  ];
}

/** The direct phase, then the phase through Atrium (`base`, a member token, a room). */
export async function concurrentAnswers({
  base,
  member,
  room,
  provider,
  atriumPid,
  count,
  seconds,
}) {
  const tokens = seconds * 20;
  const direct = await directPhase({ provider, count, tokens });
  const conversations = await newConversations(base, member, room, count);
  const idleRss = rssMiB(atriumPid);
  const through = await phase({
    count,
    tokens,
    provider,
    pids: [atriumPid, provider.pid],
    probe: () => apiCall(base, '/api/app/config', {}, member),
    open: (i) => askAndFollow(base, base, member, conversations[i], tokens),
  });
  return { direct, through, idleRss };
}

/**
 * The goals every concurrent-answers bench checks (issue 32, goal 4), against the direct phase
 * of the same run: every token delivered and every answer ended, the per-token latency added,
 * and the other call's p99 meanwhile. Answers the added p99 with the checks.
 */
export function streamChecks(direct, through, streams) {
  const addedP99 = +(through.lateMs.p99 - direct.lateMs.p99).toFixed(1);
  return {
    addedP99,
    checks: [
      {
        goal: 'every token delivered, every answer ended',
        value: `${through.tokensDelivered} / ${through.tokensExpected}, ${through.streamsEnded} / ${streams}`,
        pass:
          through.tokensDelivered === through.tokensExpected && through.streamsEnded === streams,
      },
      { goal: 'added per-token latency p99 <= 50 ms', value: addedP99, pass: addedP99 <= 50 },
      {
        goal: 'app/config p99 <= 50 ms meanwhile',
        value: through.probeMs.p99,
        pass: through.probeMs.p99 <= 50,
      },
    ],
  };
}

/** How full the machine was in each phase, and the client's own CPU: printed under the goals. */
export function machineLine(direct, through) {
  const pct = (share) => `${(share * 100).toFixed(0)} %`;
  return (
    `machine busy ${pct(through.machineBusy)} of its cores, ${pct(through.machineStolen)} stolen by the host ` +
    `(directly: ${pct(direct.machineBusy)}, ${pct(direct.machineStolen)}); ` +
    `this client ${through.clientCpuSeconds} CPU s (directly: ${direct.clientCpuSeconds})`
  );
}

/**
 * Where the machine's cores went in a phase, in cores (CPU seconds over the phase's seconds):
 * each of `names` (the phase's `pids`, in order), this client, PostgreSQL, Redis, and the rest
 * of the machine's busy time (the kernel's own work, other processes). With every part of the
 * deployment on the same cores, it shows what a saturated machine was spent on.
 */
export function coresSpent(phaseResult, cores, names) {
  const of = (seconds) => +(seconds / phaseResult.seconds).toFixed(2);
  const spent = Object.fromEntries(
    names.map((name, i) => [name, +phaseResult.cpuCores[i].toFixed(2)]),
  );
  spent['this client'] = of(phaseResult.clientCpuSeconds);
  spent.PostgreSQL = of(phaseResult.postgresCpuSeconds);
  spent.Redis = of(phaseResult.redisCpuSeconds);
  const counted = Object.values(spent).reduce((sum, share) => sum + share, 0);
  spent['rest of the machine'] = +Math.max(0, phaseResult.machineBusy * cores - counted).toFixed(2);
  return spent;
}
