import { Code } from '@atrium/shared';
import type {
  ChatSendResponse,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { readStream, until } from '../features/chat/chat.testing';
import { useInstancePair } from '../testing/instance-pair';
import { canRunInstances, postJson, type ServerProcess } from '../testing/processes';
import { authHeaders } from '../testing/test-app';
import { callOk } from '../testing/process-calls';

/**
 * Issue 26, Redis: two real instances on the machine's PostgreSQL (a fresh schema) and a
 * redis-server of the test's own behind a fault proxy. Blackholed, Redis makes nobody wait
 * longer than its timeout (sign-in counts in memory, short-lived codes are refused as
 * retryable) and a stream followed from the other instance keeps coming from the database;
 * restarted, nothing crashes or answers 500, and pub/sub is subscribed again.
 */

/** The bound for a call during a Redis outage. */
const OUTAGE_ANSWER_MS = 3_000;
/** The bound for calls to succeed again after the outage. */
const RECOVERY_MS = 5_000;

/** Between rounds of limited calls while recovering: at most 10 rounds in the bound. */
const ROUND_GAP_MS = 500;

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe.runIf(canRunInstances)('Redis blackholed and restarted under two instances', () => {
  // Both instances reach a redis-server of the test's own through the proxy.
  const pair = useInstancePair({ proxyAt: 'redis' });
  const credentials = { username: 'redisfault', password: 'redis-Fault-member-1' };

  /** Whether an instance answers `GET /readyz` with 200: its database, Redis and storage answer. */
  async function readyz(server: ServerProcess): Promise<boolean> {
    const res = await fetch(`${server.url}/readyz`).catch(() => undefined);
    return res?.status === 200;
  }

  /** A member sign-in, timed, with what it answered. */
  async function signIn(server: ServerProcess) {
    const started = performance.now();
    const res = await postJson<{ token: string }>(server, '/api/auth/login', credentials);
    return { ms: performance.now() - started, status: res.status, json: res.json };
  }

  it('answers within 3 s while blackholed, streams on from the database, and recovers from a restart', async () => {
    const { redis, proxy, fake, a, b, deployment } = pair();
    const { roomId, member } = await pair().chatRoom(credentials);
    const conversation = () =>
      callOk<ConversationRecord>(a, '/api/aigc/conversation/create', { roomId: roomId }, member);

    // (c) An answer written on A, followed on B through pub/sub, then through the database.
    const answer = words(200);
    fake.script({ text: answer, delayMs: 25 }, { text: 'Sent while Redis was away' });
    const watched = await conversation();
    const sent = await callOk<ChatSendResponse>(
      a,
      '/api/aigc/chat/send',
      { conversationId: watched.id, content: 'Write slowly' },
      member,
    );
    const id = sent.assistantMessage.id;
    const deltaTimes: number[] = [];
    let end: string | undefined;
    const followed = readStream(
      b.url,
      member.token,
      { messageId: id },
      {
        onEvent: (event) => {
          if (event.event === 'delta') deltaTimes.push(performance.now());
          else end = event.event;
        },
      },
    );
    await until(() => deltaTimes.length >= 3, 10_000);

    // (a) Blackholed: the old connections go silent, new ones reach nothing.
    proxy.blackhole();
    const cutAt = performance.now();
    const signIns = await Promise.all([signIn(a), signIn(b)]);
    const otherConversation = await conversation();
    const sendStarted = performance.now();
    const sendDuring = await postJson<ChatSendResponse>(
      b,
      '/api/aigc/chat/send',
      { conversationId: otherConversation.id, content: 'Are you there?' },
      authHeaders('member', member.token),
    );
    const sendMs = performance.now() - sendStarted;
    const captchaStarted = performance.now();
    const captcha = await postJson(a, '/api/captcha/image', {});
    const captchaMs = performance.now() - captchaStarted;

    for (const s of signIns) expect(s.json.code).toBe(0);
    expect(sendDuring.json.code).toBe(0);
    // Short-lived codes live in Redis only: refused as retryable, saying what is down.
    expect(captcha.json).toMatchObject({
      code: Code.Unavailable,
      data: { params: { outage: 'redis' } },
    });
    for (const ms of [...signIns.map((s) => s.ms), sendMs, captchaMs])
      expect(ms).toBeLessThan(OUTAGE_ANSWER_MS);

    const read = await followed;
    const stored = (
      await callOk<MessageListResponse>(
        b,
        '/api/aigc/message/list',
        { conversationId: watched.id },
        member,
      )
    ).records.find((m: MessageRecord) => m.id === id);
    // readStream throws on any gap or repeat; the whole answer arrived and ended.
    expect(end).toBe('done');
    expect(read.text).toBe(answer);
    expect(stored?.content).toBe(answer);
    const during = deltaTimes.filter((t) => t > cutAt);
    expect(during.length).toBeGreaterThan(0);
    const longestPause = Math.max(...deltaTimes.slice(1).map((t, i) => t - (deltaTimes[i] ?? t)));

    // (b) Restarted: first the connections come back, then Redis goes down and up again.
    proxy.heal();
    await redis.restart();
    const restartedAt = performance.now();
    // Sign-ins and captcha images count against the address's limits (30 a minute each, and every
    // call of this test comes from 127.0.0.1): a loop of them as fast as they answer used them up
    // while Redis came back, and then every round was refused with 1004, "never recovered". The
    // wait is on what carries no limit, each instance's /readyz (Redis among its checks), and
    // the calls follow once ready, paced so that a slow reconnect cannot spend the limits.
    const after: { status: number; json: { code: number } }[] = [];
    let recoveredMs = Infinity;
    while (performance.now() - restartedAt < RECOVERY_MS) {
      await until(async () => (await Promise.all([a, b].map(readyz))).every(Boolean), RECOVERY_MS);
      // Sign-ins count in memory meanwhile; a captcha needs Redis itself.
      const round = await Promise.all([
        signIn(a),
        signIn(b),
        postJson(a, '/api/captcha/image', {}),
        postJson(b, '/api/captcha/image', {}),
      ]);
      after.push(...round);
      if (round.every((r) => r.json.code === 0)) {
        recoveredMs = performance.now() - restartedAt;
        break;
      }
      await sleep(ROUND_GAP_MS);
    }
    expect(after.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
    expect(recoveredMs).toBeLessThan(RECOVERY_MS);

    // Pub/sub is subscribed again, as Redis itself counts it: both instances on the stop channel.
    const direct = new Redis(redis.url);
    const stopChannel = `${deployment.env.REDIS_PREFIX}chat:stop`;
    let resubscribedMs = Infinity;
    try {
      await until(async () => {
        const [, subscribers] = (await direct.pubsub('NUMSUB', stopChannel)) as [string, number];
        resubscribedMs = performance.now() - restartedAt;
        return subscribers === 2;
      }, RECOVERY_MS);
    } finally {
      direct.disconnect();
    }
    expect(resubscribedMs).toBeLessThan(RECOVERY_MS);

    // And it carries messages: a stop sent to B reaches A, the writer, only over the bus.
    fake.script({ text: words(50), delayMs: 20, hang: true });
    const count = fake.completions().length;
    const third = await conversation();
    const hanging = await callOk<ChatSendResponse>(
      a,
      '/api/aigc/chat/send',
      { conversationId: third.id, content: 'Stop me from B' },
      member,
    );
    await fake.waitFor(() => (fake.completions()[count]?.chunksSent ?? 0) >= 2);
    const stopStarted = performance.now();
    const stopped = await callOk<MessageRecord>(
      b,
      '/api/aigc/chat/stop',
      { messageId: hanging.assistantMessage.id },
      member,
    );
    const stopMs = performance.now() - stopStarted;
    expect(stopped.status).toBe('stopped');
    await fake.waitFor(() => fake.completions()[count]?.aborted === true);

    for (const server of [a, b]) {
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toContain('Unhandled error event');
    }
    console.info(
      `[redis faults] blackholed: sign-ins ${signIns.map((s) => s.ms.toFixed(0)).join(' / ')} ms, ` +
        `chat/send ${sendMs.toFixed(0)} ms, captcha refused (1005) in ${captchaMs.toFixed(0)} ms; ` +
        `followed stream: ${during.length} deltas during the outage, longest pause ${longestPause.toFixed(0)} ms, whole answer; ` +
        `restart: ${after.length} sign-ins and captchas, none 5xx, all succeeding ${recoveredMs.toFixed(0)} ms after it, ` +
        `both instances subscribed again after ${resubscribedMs.toFixed(0)} ms; ` +
        `then a stop sent across instances over pub/sub in ${stopMs.toFixed(0)} ms`,
    );
  });
});
