import type { CitationRecord } from '@atrium/shared/contract/chat-docs';
import type { ChatDocsRepository, FoundPassage } from './chat-docs.repository';
import { cosine, decodeVector, type Embedder } from './embeddings';
import { queryTerms } from './passages.mjs';

/**
 * The most tokens the documents' passages (and the words introducing them) add to a prompt, as
 * a bound that holds for any tokenizer the way budgets count (chat prompt.ts
 * `promptTokenBound`): a token holds at least one byte, so the text's UTF-8 length plus a chat
 * template's MESSAGE_TOKENS_BOUND for its own message never exceeds it. Whoever reserves a
 * prompt's tokens before the call reserves the prompt plus this when the conversation holds
 * documents. About 7 English or 2–3 Chinese passages.
 */
export const RETRIEVAL_MAX_TOKENS = 8_000;

/** What the documents' system message adds besides its text (chat prompt.ts bounds it so). */
const MESSAGE_TOKENS_BOUND = 8;

/** Passages one answer is given at most. */
const MAX_PASSAGES = 6;
/** Best matches read from the index, among which the passages are chosen. */
const CANDIDATES = 24;
/** With vectors: how much the meaning (cosine) weighs against the words' rank. */
const VECTOR_WEIGHT = 0.5;

const instructions =
  'The member attached documents to this conversation. Numbered passages from them that may ' +
  'help with the latest message follow. Use them when they are relevant, and cite each passage ' +
  'you use by its number in square brackets, like [1] or [2]. Do not cite passages you did not ' +
  'use, and do not invent numbers.';

/** One passage as given to the model, numbered from 1. */
export type GivenPassage = CitationRecord;

/** What an answer is given from the conversation's documents. */
export interface Retrieved {
  passages: GivenPassage[];
  /** The text for the prompt (instructions and numbered passages); '' when no passage is given. */
  text: string;
  /** Its bound in tokens: UTF-8 bytes and a message's template; never over RETRIEVAL_MAX_TOKENS. */
  tokens: number;
}

const heading = (passage: Omit<GivenPassage, 'text'>) =>
  `[${passage.n}] ${passage.name}${passage.page > 0 ? `, page ${passage.page}` : ''}`;

/** The numbers an answer cites: `[1]`, `[2, 3]`, `[1][4]`, within 1..count. */
export function citedNumbers(answer: string, count: number): number[] {
  const cited = new Set<number>();
  for (const [, inside] of answer.matchAll(/\[(\d+(?:\s*[,，、]\s*\d+)*)\]/g)) {
    for (const part of (inside ?? '').split(/[,，、]/)) {
      const n = Number(part.trim());
      if (Number.isInteger(n) && n >= 1 && n <= count) cited.add(n);
    }
  }
  return [...cited].sort((a, b) => a - b);
}

/**
 * Chooses the passages of a conversation's ready documents that best match a question: the
 * question's terms against the passages' (BM25 on SQLite, `ts_rank_cd` on PostgreSQL), mixed
 * with cosine similarity when the passages have vectors and an embedding model answers, then
 * best first while they fit RETRIEVAL_MAX_TOKENS.
 */
export async function retrievePassages(
  deps: { repo: ChatDocsRepository; embedder: () => Promise<Embedder | undefined> },
  ready: ReadonlyMap<number, { name: string; path: string; embeddingModel: string }>,
  question: string,
): Promise<Retrieved> {
  const none: Retrieved = { passages: [], text: '', tokens: 0 };
  const terms = queryTerms(question);
  if (ready.size === 0 || terms.length === 0) return none;
  let found: FoundPassage[] = await deps.repo.search([...ready.keys()], terms, CANDIDATES);
  if (found.length === 0) return none;

  if (found.some((passage) => passage.vector !== null)) {
    const embedder = await deps.embedder();
    const query = embedder && (await embedder.embedQuery(question));
    if (embedder && query) {
      const scored = found.map((passage, rank) => {
        const sameModel = ready.get(passage.blobId)?.embeddingModel === embedder.model;
        const meaning =
          sameModel && passage.vector ? cosine(query, decodeVector(passage.vector)) : 0;
        const words = 1 - rank / found.length;
        return { passage, score: (1 - VECTOR_WEIGHT) * words + VECTOR_WEIGHT * meaning };
      });
      found = scored.sort((a, b) => b.score - a.score).map(({ passage }) => passage);
    }
  }

  const passages: GivenPassage[] = [];
  let text = instructions;
  let tokens = Buffer.byteLength(text) + MESSAGE_TOKENS_BOUND;
  for (const passage of found) {
    if (passages.length >= MAX_PASSAGES) break;
    const source = ready.get(passage.blobId);
    if (!source) continue;
    const given = { n: passages.length + 1, name: source.name, path: source.path };
    const block = `\n\n${heading({ ...given, page: passage.page })}\n${passage.text}`;
    const cost = Buffer.byteLength(block);
    if (tokens + cost > RETRIEVAL_MAX_TOKENS) continue;
    text += block;
    tokens += cost;
    passages.push({ ...given, page: passage.page, text: passage.text });
  }
  return passages.length === 0 ? none : { passages, text, tokens };
}
