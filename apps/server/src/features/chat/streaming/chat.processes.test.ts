import type {
  ChatSendResponse,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import { describe, expect, it } from 'vitest';
import { useInstancePair } from '../../../testing/instance-pair';
import { canRunInstances, type ServerProcess } from '../../../testing/processes';
import { callOk } from '../../../testing/process-calls';
import { readStream, until, watch } from '../chat.testing';

/**
 * DESIGN 2 with real processes: two instances on one PostgreSQL schema and one Redis,
 * production heartbeats (a beat a second, dead after 3 s), the writer killed with SIGKILL while
 * it streams an answer.
 */

/** The requirement: any instance marks the answer of a dead writer interrupted within 5 s. */
const TAKEOVER_BOUND_MS = 5_000;
/** "Re-attach answers at once": the headers used to wait for the 15 s keep-alive. */
const HEADERS_BOUND_MS = 1_000;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe.runIf(canRunInstances)('an answer whose writer is killed with -9 (real processes)', () => {
  const pair = useInstancePair();

  it('another instance tells watchers within 5 s, ends the unwatched answer too, re-attaches at once, and takes the next message; what was shown is what is stored', async () => {
    const { fake, a, b } = pair();
    const credentials = { username: 'killtest', password: 'kill-Test-member-1' };
    const { roomId, member } = await pair().chatRoom(credentials);
    const conversation = () =>
      callOk<ConversationRecord>(a, '/api/aigc/conversation/create', { roomId: roomId }, member);
    const sendOn = (server: ServerProcess, conversationId: number, content: string) =>
      callOk<ChatSendResponse>(server, '/api/aigc/chat/send', { conversationId, content }, member);
    const messageOn = async (server: ServerProcess, conversationId: number, id: number) => {
      const { records } = await callOk<MessageListResponse>(
        server,
        '/api/aigc/message/list',
        { conversationId },
        member,
      );
      const found = records.find((m) => m.id === id);
      if (!found) throw new Error(`message ${id} not listed`);
      return found;
    };

    // Slow tokens: both answers are far from done when A is killed.
    const answer = words(300);
    fake.script({ text: answer, delayMs: 50 }, { text: answer, delayMs: 50 });
    const first = fake.completions().length;
    const watched = await conversation();
    const unwatched = await conversation();
    const id = (await sendOn(a, watched.id, 'Tell me everything')).assistantMessage.id;
    const lonely = (await sendOn(a, unwatched.id, 'Nobody reads this')).assistantMessage.id;
    const onB = watch(b.url, member.token, id);
    const onA = watch(a.url, member.token, id);
    await until(() => onB.text.length > 100 && onA.text.length > 100, 10_000);

    const killedAt = performance.now();
    await a.kill();
    // The browser that followed on A reconnects to B with what it holds.
    const again = watch(b.url, member.token, id, onA.text);
    let unwatchedMs = Infinity;
    let lonelyEnd: MessageRecord | undefined;
    await Promise.all([
      onB.closed,
      again.closed,
      until(async () => {
        const message = await messageOn(b, unwatched.id, lonely);
        if (message.status === 'streaming') return false;
        unwatchedMs = performance.now() - killedAt;
        lonelyEnd = message;
        return true;
      }, 2 * TAKEOVER_BOUND_MS),
    ]);
    const watcherMs = (onB.endedAt ?? Infinity) - killedAt;
    const reattachedMs = (again.endedAt ?? Infinity) - killedAt;
    const headersMs = again.headersMs ?? Infinity;
    console.info(
      `[processes] after kill -9 of the writer: watcher on B told interrupted after ${(watcherMs / 1000).toFixed(2)} s, ` +
        `re-attached client after ${(reattachedMs / 1000).toFixed(2)} s (headers in ${headersMs.toFixed(1)} ms), ` +
        `unwatched answer marked interrupted after ${(unwatchedMs / 1000).toFixed(2)} s`,
    );

    expect(onB.end).toMatchObject({ event: 'error', data: { status: 'interrupted' } });
    expect(again.end).toMatchObject({ event: 'error', data: { status: 'interrupted' } });
    expect(watcherMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    expect(reattachedMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    expect(unwatchedMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    expect(headersMs).toBeLessThanOrEqual(HEADERS_BOUND_MS);
    expect(lonelyEnd?.status).toBe('interrupted');
    // The kill cut the writer's requests to the model.
    await fake.waitFor(() => fake.completions()[first]?.aborted === true);

    const stored = await messageOn(b, watched.id, id);
    expect(stored.status).toBe('interrupted');
    expect(stored.content.length).toBeLessThan(answer.length);
    expect(answer.startsWith(stored.content)).toBe(true);
    expect(onB.text).toBe(stored.content);
    expect(again.text).toBe(stored.content);

    fake.script({ text: 'Still here' });
    const next = await sendOn(b, watched.id, 'Are you there?');
    const read = await readStream(b.url, member.token, { messageId: next.assistantMessage.id });
    expect(read.text).toBe('Still here');
    expect(read.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });
});
