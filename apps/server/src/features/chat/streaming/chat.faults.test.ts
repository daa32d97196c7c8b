import type {
  ChatSendResponse,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useInstancePair } from '../../../testing/instance-pair';
import { canRunInstances } from '../../../testing/processes';
import { callOk } from '../../../testing/process-calls';
import { sleep, until, watch } from '../chat.testing';

/**
 * Issue 26, point 5: a stall is not a death. Two real instances on one PostgreSQL schema and one
 * Redis, production heartbeats (a beat a second, dead after 3 s); A reaches PostgreSQL through a
 * fault proxy, B directly. A's database stalls (every byte held, both ways) for longer than
 * others wait for a heartbeat, while A streams answers from a provider at 20 tokens a second.
 */

const ANSWERS = 6;
/** 20 tokens a second, as the red team streamed. */
const TOKEN_DELAY_MS = 50;
/** Longer than deadAfter (3 s): B sees A's heartbeat stale for about 5 s. */
const STALL_MS = 8_000;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe.runIf(canRunInstances)('a writer whose database stalls (real processes)', () => {
  // A reaches PostgreSQL through the proxy, B directly.
  const pair = useInstancePair({ proxyAt: 'a-database' });

  /** How stale the staler heartbeat of the deployment is now, read past the proxy. */
  async function stalestHeartbeatMs(): Promise<number> {
    const client = new pg.Client({ connectionString: pair().deployment.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ beat: string }>(
        'select min(heartbeat_at) as beat from instances',
      );
      return Date.now() - Number(rows[0]?.beat ?? Date.now());
    } finally {
      await client.end();
    }
  }

  it(`keeps every answer it was writing through an ${STALL_MS / 1000} s stall: each ends done with every token, the model is never cut, and a watcher on the other instance misses nothing`, async () => {
    const { fake, proxy, a, b } = pair();
    const credentials = { username: 'stalltest', password: 'stall-Test-member-1' };
    const { roomId, member } = await pair().chatRoom(credentials);

    // Long enough to be mid-answer through the whole stall: 300 tokens at 20 a second.
    const answer = words(300);
    const first = fake.completions().length;
    fake.setDefault({ text: answer, delayMs: TOKEN_DELAY_MS });
    const started: { conversationId: number; id: number }[] = [];
    for (let i = 0; i < ANSWERS; i += 1) {
      const conversation = await callOk<ConversationRecord>(
        a,
        '/api/aigc/conversation/create',
        { roomId: roomId },
        member,
      );
      const sent = await callOk<ChatSendResponse>(
        a,
        '/api/aigc/chat/send',
        { conversationId: conversation.id, content: `Question ${i}` },
        member,
      );
      started.push({ conversationId: conversation.id, id: sent.assistantMessage.id });
    }
    const watched = started[0]?.id ?? 0;
    const onB = watch(b.url, member.token, watched);
    await until(() => onB.text.length > 50, 10_000);

    proxy.pause();
    const pausedAt = performance.now();
    await sleep(STALL_MS - 1_000);
    // The stall is long enough for others to count A dead by its heartbeat alone.
    const stalest = await stalestHeartbeatMs();
    await sleep(1_000);
    proxy.resume();
    const resumedAt = performance.now();
    const streamingThrough = fake
      .completions()
      .slice(first)
      .filter((r) => !r.finished && !r.aborted).length;

    const ended: MessageRecord[] = [];
    await until(async () => {
      ended.length = 0;
      for (const { conversationId, id } of started) {
        const { records } = await callOk<MessageListResponse>(
          b,
          '/api/aigc/message/list',
          { conversationId },
          member,
        );
        const found = records.find((m) => m.id === id);
        if (!found || found.status === 'streaming') return false;
        ended.push(found);
      }
      return true;
    }, 30_000);
    await onB.closed;
    const allDoneMs = performance.now() - resumedAt;
    console.info(
      `[faults] A's database paused ${((resumedAt - pausedAt) / 1000).toFixed(1)} s (A's heartbeat ${(stalest / 1000).toFixed(1)} s stale as B saw it), ` +
        `${streamingThrough} of ${ANSWERS} provider streams still open at resume; all answers ended ${(allDoneMs / 1000).toFixed(2)} s after it`,
    );

    expect(stalest).toBeGreaterThan(3_000);
    expect(streamingThrough).toBe(ANSWERS);
    for (const message of ended)
      expect(message).toMatchObject({ status: 'done', content: answer, error: '' });
    for (const request of fake.completions().slice(first, first + ANSWERS))
      expect(request).toMatchObject({ aborted: false, finished: true });
    expect(onB.end).toMatchObject({ event: 'done', data: { status: 'done' } });
    expect(onB.text).toBe(answer);
  });
});
