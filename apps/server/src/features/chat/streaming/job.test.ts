import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../chat.tables';
import { Job, type GenerationRequest } from './job';
import { estimateTokens, floorTokens } from './tokens';

function jobWith(maxTokens: number | undefined): Job {
  const request: GenerationRequest = {
    messageId: 1,
    conversationId: 1,
    memberId: 1,
    model: {
      modelId: 1,
      name: 'm',
      title: 'm',
      vision: false,
      contextLength: 8192,
      promptPrice: 0,
      completionPrice: 0,
      connection: { baseUrl: 'http://127.0.0.1:1', apiKey: '' },
    },
    systemPrompt: '',
    params: maxTokens === undefined ? {} : { max_tokens: maxTokens },
    withDocuments: false,
  };
  return new Job(request);
}

/** Feeds `text` in pieces of `size` characters, as a provider streams it. */
function feed(job: Job, text: string, size = 7): void {
  for (let at = 0; at < text.length && !job.endReason; at += size)
    job.receive(text.slice(at, at + size));
}

describe('an answer held to its max_tokens', () => {
  it('is not cut when an honest provider spends fewer tokens than the estimate says', () => {
    // Qwen and DeepSeek spend about 0.7 tokens a Chinese character: 1,400 characters fit 1,000.
    const chinese = '这是一个诚实的回答。'.repeat(140);
    const job = jobWith(1_000);
    feed(job, chinese);
    expect(estimateTokens(chinese)).toBeGreaterThan(1_000);
    expect(job.endReason).toBeUndefined();
    expect(job.content).toBe(chinese);
    // English of long words (about 5 characters a token) is not cut either.
    const english = 'internationalization responsibilities '.repeat(100);
    const other = jobWith(800);
    feed(other, english);
    expect(other.endReason).toBeUndefined();
  });

  it('stops reading a provider that ignores it, at its floor count', () => {
    const job = jobWith(1_000);
    feed(job, '无视上限的回答'.repeat(10_000));
    expect(job.endReason).toBe('length');
    expect(floorTokens(job.content)).toBeLessThanOrEqual(1_000);
    expect(floorTokens(job.content)).toBeGreaterThan(990);
    expect(job.controller.signal.aborted).toBe(true);
  });

  it(`keeps at most ${MAX_ANSWER_CHARS} characters without a max_tokens, never splitting a character`, () => {
    const job = jobWith(undefined);
    feed(job, 'a'.repeat(MAX_ANSWER_CHARS - 1) + '😀😀', 50_001);
    expect(job.endReason).toBe('length');
    expect(job.content.length).toBe(MAX_ANSWER_CHARS - 1);
  });
});
