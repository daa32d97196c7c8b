import type { Db } from '../../db/index';
import { openAiClient, type ResolvedModel } from '../ai/index';

/** Texts sent to `/v1/embeddings` in one request. */
const EMBED_BATCH = 64;
/** A question's vector must come quickly: it is on the path to the first token. */
const QUERY_TIMEOUT_MS = 3_000;

/** A configured embedding model: vectors of passages and questions, unit length, base64. */
export interface Embedder {
  /** The model's name, recorded with the vectors it made. */
  model: string;
  batch: number;
  embed(texts: readonly string[]): Promise<string[]>;
  /** A question's vector; undefined when the provider does not answer in time. */
  embedQuery(text: string): Promise<Float32Array | undefined>;
}

export function encodeVector(values: readonly number[]): string {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return Buffer.from(vector.buffer).toString('base64');
}

export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
}

/** Cosine similarity of two unit vectors (0 when their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

/**
 * The embedding model named by `ATRIUM_EMBEDDING_MODEL`: an AI model an administrator set up
 * (Admin › AI models) with that model name, called at its provider's `/v1/embeddings`. Without
 * the setting, or while no enabled model has that name, there is none and documents are searched
 * by their words only.
 */
export function embedderFor(
  db: Db,
  name: string | undefined,
  resolve: (modelId: number) => Promise<ResolvedModel | undefined>,
): () => Promise<Embedder | undefined> {
  if (!name) return () => Promise.resolve(undefined);
  const models = db.withTables<{ aiModels: { id: number; name: string; enabled: number } }>();
  return async () => {
    const row = await models
      .selectFrom('aiModels')
      .select('id')
      .where('name', '=', name)
      .where('enabled', '=', 1)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const model = row && (await resolve(row.id));
    if (!model) return undefined;
    const call = async (input: readonly string[], timeoutMs: number) => {
      const client = openAiClient(model.connection, timeoutMs);
      // Floats, not the SDK's default base64, which not every compatible provider speaks.
      const answer = await client.embeddings.create({
        model: model.name,
        input: [...input],
        encoding_format: 'float',
      });
      return [...answer.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    };
    return {
      model: model.name,
      batch: EMBED_BATCH,
      embed: async (texts) => (await call(texts, 60_000)).map(encodeVector),
      embedQuery: async (text) => {
        try {
          const [vector] = await call([text], QUERY_TIMEOUT_MS);
          return vector ? decodeVector(encodeVector(vector)) : undefined;
        } catch {
          return undefined;
        }
      },
    };
  };
}
