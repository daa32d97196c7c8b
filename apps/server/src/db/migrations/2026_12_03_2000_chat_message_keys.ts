import { render } from '@atrium/shared/messages/catalogue';
import type { Kysely } from 'kysely';
import type { MigrationDb } from '../columns';

interface ChatTexts {
  chat_messages: { id: number; error: string };
  chat_conversations: { id: number; title: string };
  chat_shares: { id: number; title: string };
}

type Params = Record<string, string | number>;

/** The English texts the server stored before issue 27, as they were written then. */
const exact: Record<string, string> = {
  'The answer was interrupted (the server restarted). What was written is kept.':
    'chat.answerInterrupted',
  'The answer was interrupted: the server writing it lost touch with the database for a while. What was written is kept.':
    'chat.answerLostTouch',
  'The answer was interrupted because the server shut down. What was written is kept.':
    'chat.answerShutdown',
  'The answer reached its length limit and was cut off. What was written is kept.':
    'chat.answerLength',
  'Exported while still being written': 'chat.answerExportedStreaming',
  'The model provider did not answer in time. Please try again.': 'ai.providerTimeout',
};

const number = (text: string | undefined) => Number(text ?? 0);

const patterns: [RegExp, string, (m: RegExpExecArray) => Params][] = [
  [
    /^The model stopped answering for (\d+) seconds, so the answer was cut off\. Try again\.$/,
    'chat.answerIdle',
    (m) => ({ seconds: number(m[1]) }),
  ],
  [
    /^The model did not start answering within (\d+) seconds\. Try again later\.$/,
    'chat.answerNoStart',
    (m) => ({ seconds: number(m[1]) }),
  ],
  [
    /^Could not reach the model provider \(([\s\S]*)\)\.$/,
    'ai.providerUnreachable',
    (m) => ({ cause: m[1] ?? '' }),
  ],
  [
    /^The model provider refused the request \(HTTP (\d+)\): ([\s\S]*)$/,
    'ai.providerRefused',
    (m) => ({ status: number(m[1]), detail: m[2] ?? '' }),
  ],
  [
    /^The model provider reported an error: ([\s\S]*)$/,
    'ai.providerError',
    (m) => ({ detail: m[1] ?? '' }),
  ],
  [
    /^The connection to the model provider broke off mid-answer \(([\s\S]*)\)\.$/,
    'ai.providerBrokeOff',
    (m) => ({ reason: m[1] ?? '' }),
  ],
  [/^The model call failed: ([\s\S]*)$/, 'ai.callFailed', (m) => ({ reason: m[1] ?? '' })],
];

/** The stored form of an old English error (features/chat/chat-texts.ts), if it is a known one. */
export function keyedError(text: string): string | undefined {
  const key = exact[text];
  if (key) return JSON.stringify({ key });
  for (const [pattern, patternKey, params] of patterns) {
    const match = pattern.exec(text);
    if (match) return JSON.stringify({ key: patternKey, params: params(match) });
  }
  return undefined;
}

const OLD_DEFAULT_TITLE = 'New chat';

/**
 * One voice (issue 27): an answer's error is stored as a catalogue message, JSON
 * `{"key":…,"params":…}`, rendered in the reader's language when read, where it was stored as
 * English words; every old English text the server wrote is turned into its message (a
 * provider's own words stay a parameter). A conversation nobody named is stored with an empty
 * title (shown as "New chat" / "新对话"), where it held "New chat".
 */
export async function up(db: MigrationDb): Promise<void> {
  const chat = db as unknown as Kysely<ChatTexts>;
  const errors = await chat
    .selectFrom('chat_messages')
    .select('error')
    .distinct()
    .where('error', '<>', '')
    .execute();
  for (const { error } of errors) {
    const keyed = keyedError(error);
    if (keyed === undefined) continue;
    await chat
      .updateTable('chat_messages')
      .set({ error: keyed })
      .where('error', '=', error)
      .execute();
  }
  for (const table of ['chat_conversations', 'chat_shares'] as const) {
    await chat
      .updateTable(table)
      .set({ title: '' })
      .where('title', '=', OLD_DEFAULT_TITLE)
      .execute();
  }
}

/** Back to English words: every stored message in its en text, empty titles as "New chat". */
export async function down(db: MigrationDb): Promise<void> {
  const chat = db as unknown as Kysely<ChatTexts>;
  const errors = await chat
    .selectFrom('chat_messages')
    .select('error')
    .distinct()
    .where('error', 'like', '{%')
    .execute();
  for (const { error } of errors) {
    let text: string;
    try {
      const ref = JSON.parse(error) as { key: string; params?: Params };
      if (typeof ref.key !== 'string') continue;
      text = render('en', ref);
    } catch {
      continue;
    }
    await chat
      .updateTable('chat_messages')
      .set({ error: text })
      .where('error', '=', error)
      .execute();
  }
  for (const table of ['chat_conversations', 'chat_shares'] as const) {
    await chat
      .updateTable(table)
      .set({ title: OLD_DEFAULT_TITLE })
      .where('title', '=', '')
      .execute();
  }
}
