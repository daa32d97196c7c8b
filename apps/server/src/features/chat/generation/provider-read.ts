import type { StreamUsage } from '@atrium/shared/contract/chat';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  describeProviderError,
  scrubKey,
  streamChatCompletion,
  type ProviderConnection,
} from '../../ai/index';
import { storedError } from '../chat-texts';
import { EndMessages, storable, type EndStatus, type Job, type Outcome } from '../streaming/index';

interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** How long the provider may take to answer the request at all (the SDK's timeout was as long). */
const REQUEST_TIMEOUT_MS = 60_000;

export interface ReadRequest {
  connection: ProviderConnection;
  /** Makes the prompt (with its estimate, for when the provider reports no usage). */
  prompt: () => Promise<{ messages: ChatCompletionMessageParam[]; promptTokens: number }>;
  /**
   * Silence from the provider (before the first token or between two) that ends the answer: the
   * generations' one idle sweep stops the job (reason `timeout`) once `job.heardAt` is this old.
   */
  idleTimeoutMs: number;
  log: FastifyBaseLogger;
  /** Called with each piece of text (U+0000 removed) while the job takes it. */
  onText: (text: string) => void;
}

/**
 * Makes the prompt, then reads the provider's stream into the job until it ends, fails, is stopped, falls silent for
 * `idleTimeoutMs`, or reaches the answer's limits (`Job.receive`, which aborts it), and answers
 * how the answer ends. An abort ends the stream quietly: the job's end reason says what happened.
 */
export async function readAnswer(job: Job, request: ReadRequest): Promise<Outcome> {
  const apiKey = job.request.model.connection.apiKey;
  let started = false;
  let status: EndStatus = 'done';
  let error = '';
  let usage: ReportedUsage | undefined;
  let promptTokens = 0;
  try {
    const prompt = await request.prompt();
    promptTokens = prompt.promptTokens;
    if (job.endReason) throw new Error(job.endReason);
    job.heardAt = performance.now();
    await streamChatCompletion(
      request.connection,
      {
        model: job.request.model.name,
        messages: prompt.messages,
        params: { ...job.request.params },
      },
      {
        signal: job.controller.signal,
        timeoutMs: REQUEST_TIMEOUT_MS,
        onChunk: (chunk) => {
          // Nothing past the limit is taken: the job aborted the stream as it reached it.
          if (job.endReason) return;
          job.heardAt = performance.now();
          started = true;
          const content = chunk.choices?.[0]?.delta?.content;
          if (content) {
            const text = storable(content);
            if (text) request.onText(text);
          }
          if (chunk.usage) usage = chunk.usage;
        },
      },
    );
  } catch (thrown) {
    if (!job.endReason) {
      status = 'error';
      error = storable(storedError(describeProviderError(thrown, apiKey, job.content.length > 0)));
      request.log.warn(
        {
          messageId: job.messageId,
          reason: scrubKey(thrown instanceof Error ? thrown.message : String(thrown), apiKey),
          // What the connection said underneath ("Connection error." alone names no cause).
          cause: scrubKey(causeOf(thrown) ?? '', apiKey) || undefined,
        },
        'chat generation failed',
      );
    }
  } finally {
    job.heardAt = undefined;
  }
  const seconds = Math.round(request.idleTimeoutMs / 1000);
  switch (job.endReason) {
    case 'stop':
      status = 'stopped';
      break;
    case 'timeout':
      status = 'error';
      error = started ? EndMessages.idle(seconds) : EndMessages.noStart(seconds);
      break;
    case 'shutdown':
      status = 'interrupted';
      error = EndMessages.shutdown;
      break;
    case 'length':
      status = 'interrupted';
      error = EndMessages.length;
      break;
  }
  return { status, error, usage: settledUsage(job, usage, promptTokens) };
}

/**
 * What the answer is settled at: the provider's count, but never less than the fewest tokens
 * the text actually received can have cost (a provider that ignores max_tokens may report
 * anything). Without a count, the estimate, held within the answer's max_tokens (its
 * reservation) unless even the floor count passes it: the floor is what the cut is made by.
 */
function settledUsage(
  job: Job,
  usage: ReportedUsage | undefined,
  promptTokens: number,
): StreamUsage {
  const floor = job.floorTokens;
  if (!usage) {
    const maxTokens = job.request.params.max_tokens;
    const estimate =
      maxTokens === undefined
        ? job.estimatedTokens
        : Math.max(floor, Math.min(job.estimatedTokens, maxTokens));
    return { promptTokens, completionTokens: estimate, estimated: true };
  }
  return usage.completion_tokens >= floor
    ? {
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        estimated: false,
      }
    : { promptTokens: usage.prompt_tokens, completionTokens: floor, estimated: true };
}

/** The code (ECONNRESET, ECONNREFUSED…) or message of what an error wraps, if anything. */
function causeOf(thrown: unknown): string | undefined {
  const cause =
    thrown instanceof Error ? (thrown.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code ?? (cause instanceof Error ? cause.message : undefined);
}
