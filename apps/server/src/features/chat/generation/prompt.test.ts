import { describe, expect, it } from 'vitest';
import type { ResolvedModel } from '../../ai/index';
import type { ImageAccess } from '../../library/index';
import type { MessageRow } from '../chat.tables';
import { parseImages } from '../chat.tables';
import { buildPrompt, planPrompt, type PromptRequest, type PromptRow } from './prompt';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../streaming/index';

const model = (over: Partial<ResolvedModel> = {}): ResolvedModel => ({
  modelId: 1,
  name: 'm',
  title: 'M',
  vision: false,
  contextLength: 8192,
  promptPrice: 0,
  completionPrice: 0,
  connection: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k' },
  ...over,
});

let nextId = 1;
function row(role: 'user' | 'assistant', content: string, images: string[] = []): MessageRow {
  const id = nextId++;
  return {
    id,
    conversationId: 1,
    parentId: null,
    role,
    content,
    images: JSON.stringify(images),
    status: 'done',
    error: '',
    modelId: null,
    promptTokens: 0,
    completionTokens: 0,
    tokensEstimated: 0,
    seq: id,
    writerInstance: null,
    createdAt: id,
    updatedAt: id,
  };
}

/** Images resolve to data URLs naming their path; `gone` ones do not resolve. */
const images = (gone: string[] = []): ImageAccess => ({
  owns: () => Promise.resolve(true),
  dataUrl: (path) =>
    Promise.resolve(gone.includes(path) ? undefined : `data:image/png;base64,${path}`),
});

/** The prompt planned from `history` (newest first) and built, as an answer's is. */
const build = (request: PromptRequest, history: readonly PromptRow[], access: ImageAccess) =>
  buildPrompt(request.systemPrompt, planPrompt(request, history), access);

describe('buildPrompt', () => {
  it('puts the system prompt first and the history oldest first', async () => {
    const history = [row('user', 'second?'), row('assistant', 'first!'), row('user', 'first?')];
    const prompt = await build(
      { model: model(), systemPrompt: 'Be brief.', params: {} },
      history,
      images(),
    );
    expect(prompt.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first?' },
      { role: 'assistant', content: 'first!' },
      { role: 'user', content: 'second?' },
    ]);
    expect(prompt.promptTokens).toBe(
      ['Be brief.', 'first?', 'first!', 'second?']
        .map((text) => estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS)
        .reduce((a, b) => a + b),
    );
  });

  it('keeps as much recent history as fits the context less the answer, and always the newest', async () => {
    const long = 'x'.repeat(4 * 300); // 300 tokens each
    const history = [row('user', long), row('assistant', long), row('user', long)];
    // 1000 of context, 256 kept for the answer (a quarter): two messages fit, not three.
    const two = await build(
      { model: model({ contextLength: 1000 }), systemPrompt: '', params: {} },
      history,
      images(),
    );
    expect(two.messages).toHaveLength(2);
    // An answer of 600 tokens leaves room for one; the newest goes in even when it alone is over.
    const one = await build(
      { model: model({ contextLength: 1000 }), systemPrompt: '', params: { max_tokens: 900 } },
      history,
      images(),
    );
    expect(one.messages).toEqual([{ role: 'user', content: long }]);
  });

  it('skips empty answers (stopped before a word) and sends images only to vision models', async () => {
    const history = [row('assistant', ''), row('user', 'what is this?', ['a.png', 'gone.png'])];
    const vision = await build(
      { model: model({ vision: true }), systemPrompt: '', params: {} },
      history,
      images(['gone.png']),
    );
    expect(vision.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,a.png' } },
        ],
      },
    ]);
    expect(vision.promptTokens).toBe(
      estimateTokens('what is this?') + MESSAGE_OVERHEAD_TOKENS + 2 * IMAGE_TOKENS,
    );
    const text = await build({ model: model(), systemPrompt: '', params: {} }, history, images());
    expect(text.messages).toEqual([{ role: 'user', content: 'what is this?' }]);
  });

  it('sends at most the four newest images', async () => {
    const history = [
      row('user', 'new', ['n1', 'n2', 'n3']),
      row('user', 'old', ['o1', 'o2', 'o3']),
    ];
    const prompt = await build(
      { model: model({ vision: true }), systemPrompt: '', params: {} },
      history,
      images(),
    );
    const urls = prompt.messages.flatMap((message) =>
      Array.isArray(message.content)
        ? message.content.flatMap((part) => ('image_url' in part ? [part.image_url.url] : []))
        : [],
    );
    expect(urls.map((url) => url.slice(url.indexOf(',') + 1))).toEqual(['o1', 'n1', 'n2', 'n3']);
  });
});

describe('parseImages', () => {
  it('reads the stored list and ignores anything else', () => {
    expect(parseImages('["a.png","b.png"]')).toEqual(['a.png', 'b.png']);
    expect(parseImages('[1,"a.png",null]')).toEqual(['a.png']);
    expect(parseImages('{"a":1}')).toEqual([]);
    expect(parseImages('not json')).toEqual([]);
  });
});
