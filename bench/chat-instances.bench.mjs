// Issue 32, goal 4, its second half: the same 1,000 concurrent answers at 20 tokens/s spread over
// two instances on one PostgreSQL and Redis (the deployment DESIGN 2 names for several
// instances). Each instance writes half of the answers; half of the clients follow an answer
// from the instance writing it and half from the other one, through the Redis bus. Measured as
// chat.bench.mjs measures one instance: lateness against reading the provider directly in the
// same run, both instances' CPU against the provider's, each instance's RSS, and app/config on
// each meanwhile. Needs BENCH_DATABASE_URL and BENCH_REDIS_URL (or TEST_DATABASE_URL and
// TEST_REDIS_URL); without them it says so and measures nothing. Works in a database of its
// own, created and dropped here; on Redis it only uses Atrium's keys and channels.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import {
  askAndFollow,
  coresSpent,
  directPhase,
  machineLine,
  newConversations,
  phase,
  rssMiB,
  startProvider,
  streamChecks,
} from './chat-streams-lib.mjs';
import { apiCall, printTable, saveResult, seedChatRoom, startAtrium } from './lib.mjs';

const STREAMS = Number(process.env.CHAT_BENCH_STREAMS ?? 1000);
const SECONDS = Number(process.env.CHAT_BENCH_SECONDS ?? 15);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;

if (!databaseUrl || !redisUrl) {
  console.log('two instances: skipped (set BENCH_DATABASE_URL and BENCH_REDIS_URL)');
  process.exit(0);
}

const name = `atrium_bench_${process.pid}`;
const server = new pg.Client({ connectionString: databaseUrl });
await server.connect();
await server.query(`create database ${name}`);
const url = new URL(databaseUrl);
url.pathname = `/${name}`;
// Every instance on one database runs with the same secret.
const env = {
  DATABASE_URL: url.toString(),
  REDIS_URL: redisUrl,
  ATRIUM_SECRET: randomBytes(32).toString('hex'),
};

const instances = [];
const provider = await startProvider();
try {
  instances.push(await startAtrium(env));
  instances.push(await startAtrium(env));
  const bases = instances.map((i) => i.url.replace(/\/$/, ''));
  const seeded = await seedChatRoom(bases[0], {
    adminPassword: instances[0].adminPassword,
    providerUrl: provider.url,
    unlimited: true,
    members: ['streamer'],
  });
  const member = seeded.members.streamer;
  const tokens = SECONDS * 20;
  const direct = await directPhase({ provider, count: STREAMS, tokens });
  const conversations = await newConversations(bases[0], member, seeded.room, STREAMS);
  const idleRss = instances.map((i) => rssMiB(i.pid));
  let probes = 0;
  const through = await phase({
    count: STREAMS,
    tokens,
    provider,
    pids: [...instances.map((i) => i.pid), provider.pid],
    // app/config on each instance in turn.
    probe: () => apiCall(bases[probes++ % 2], '/api/app/config', {}, member),
    // Written by instance i % 2; followed from the same one for half of each's answers, from
    // the other for the rest.
    open: (i) =>
      askAndFollow(bases[i % 2], bases[(i + (i >> 1)) % 2], member, conversations[i], tokens),
  });

  const { addedP99, checks: common } = streamChecks(direct, through, STREAMS);
  // What the instances said about the streams that failed (LOG_LEVEL=warn keeps their errors).
  for (const [i, instance] of instances.entries()) {
    const failed = instance
      .output()
      .split('\n')
      .filter((line) => line.includes('chat stream failed'));
    if (failed.length > 0)
      console.log(`instance ${i}: ${failed.length} failed, first: ${failed[0]}`);
  }
  const [cpuA, cpuB, providerCpu] = through.cpuSeconds;
  const atriumCpu = +(cpuA + cpuB).toFixed(2);
  const cpuRatio = +(atriumCpu / providerCpu).toFixed(2);
  const rssEach = through.rssMaxMiBEach.slice(0, 2);
  printTable([
    { path: 'provider directly', ...direct.lateMs, tokens: `${direct.tokensDelivered}` },
    { path: 'through two instances', ...through.lateMs, tokens: `${through.tokensDelivered}` },
  ]);
  const checks = [
    ...common,
    {
      goal: "both instances' CPU <= 3x the provider's",
      value: `${cpuA} + ${cpuB} / ${providerCpu} CPU s = ${cpuRatio}x`,
      pass: cpuRatio <= 3,
    },
    {
      goal: 'RSS <= 400 MiB each',
      value: rssEach.join(' / '),
      pass: rssEach.every((rss) => rss <= 400),
    },
  ];
  printTable(checks);
  const pass = checks.every((c) => c.pass);
  console.log(
    `${STREAMS} concurrent answers on two instances: ${pass ? 'OK' : 'MISSED'} (open ${through.openSeconds} s)`,
  );
  console.log(machineLine(direct, through));
  // The whole deployment shares the cores: what each part took of them, read directly and
  // through the instances (the provider and this client alone already take the direct share).
  const spent = {
    direct: coresSpent(direct, availableParallelism(), ['provider']),
    through: coresSpent(through, availableParallelism(), ['instance A', 'instance B', 'provider']),
  };
  console.log(`cores spent, through the instances: ${JSON.stringify(spent.through)}`);
  console.log(`cores spent, directly: ${JSON.stringify(spent.direct)}`);
  saveResult('chat-instances', {
    streams: STREAMS,
    tokensPerSecond: 20,
    seconds: SECONDS,
    direct,
    through,
    rssIdleMiB: idleRss,
    addedLatencyP99Ms: addedP99,
    cpuRatio,
    coresSpent: spent,
    checks,
    pass,
  });
  if (!pass) process.exitCode = 1;
} catch (error) {
  for (const [i, instance] of instances.entries())
    console.error(`instance ${i} printed:\n${instance.output().slice(-4000)}`);
  throw error;
} finally {
  await provider.stop();
  for (const instance of instances) {
    await instance.stop();
    rmSync(instance.dataDir, { recursive: true, force: true });
  }
  await server.query(`drop database if exists ${name} with (force)`);
  await server.end();
}
