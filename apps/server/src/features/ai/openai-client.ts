import { message, type MessageRef, type ParamValue } from '@atrium/shared/messages/catalogue';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

export type { ChatCompletionChunk, ChatCompletionMessageParam };

/** Where and how to reach one OpenAI-compatible endpoint. */
export interface ProviderConnection {
  baseUrl: string;
  /** Decrypted; never logged and never part of an answer. */
  apiKey: string;
}

/** The SDK refuses an empty key; without one the header carrying it is dropped again below. */
const NO_KEY = 'none';

/**
 * A client for one provider. Every option the SDK would otherwise read from the environment is
 * given explicitly (config.ts is the only reader of process.env); no retries, so a failing
 * provider answers at once and a started stream is never sent twice; the SDK's own logging is
 * off because its request logs could carry headers.
 */
export function openAiClient(connection: ProviderConnection, timeoutMs = 60_000): OpenAI {
  return new OpenAI({
    baseURL: connection.baseUrl,
    apiKey: connection.apiKey || NO_KEY,
    // A provider without a key (Ollama, llama.cpp) gets no Authorization header at all.
    ...(connection.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
  });
}

export interface StreamCompletionRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  params: Record<string, unknown>;
}

/** Replaces every occurrence of the key, so a provider echoing it cannot leak it further. */
export function scrubKey(text: string, apiKey: string): string {
  if (apiKey.length < 4) return text;
  return text.split(apiKey).join('***');
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

function providerMessage(error: APIError): string {
  const body = error.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return error.message.replace(/^\d{3}\s*/, '');
}

/** Removes the key from every text parameter of `ref`, nested ones too. */
function scrubRef(ref: MessageRef, apiKey: string): MessageRef {
  if (!ref.params) return ref;
  const params: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(ref.params)) {
    params[name] =
      typeof value === 'string'
        ? scrubKey(value, apiKey)
        : typeof value === 'object'
          ? scrubRef(value, apiKey)
          : value;
  }
  return { ...ref, params };
}

/**
 * A message a member or admin can act on, without the key, for anything a provider call threw:
 * the provider's own words (its error text) are a parameter, as it sent them.
 */
export function describeProviderError(
  error: unknown,
  apiKey: string,
  midStream: boolean,
): MessageRef {
  let ref: MessageRef;
  if (error instanceof APIConnectionTimeoutError) {
    ref = message('ai.providerTimeout');
  } else if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    ref = message('ai.providerUnreachable', { cause: clip(cause, 120) });
  } else if (error instanceof APIError && typeof error.status === 'number') {
    ref = message('ai.providerRefused', {
      status: error.status,
      detail: clip(providerMessage(error)),
    });
  } else if (error instanceof APIError) {
    ref = message('ai.providerError', { detail: clip(providerMessage(error)) });
  } else if (midStream) {
    const reason = error instanceof Error ? error.message : String(error);
    ref = message('ai.providerBrokeOff', { reason: clip(reason, 120) });
  } else {
    ref = message('ai.callFailed', {
      reason: clip(error instanceof Error ? error.message : String(error)),
    });
  }
  return scrubRef(ref, apiKey);
}
