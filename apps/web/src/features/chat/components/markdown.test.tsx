import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test-utils/render';
import { ChatMarkdown } from './markdown';

describe('ChatMarkdown', () => {
  it('renders markdown with highlighted code', () => {
    const { container } = renderWithProviders(
      <ChatMarkdown
        text={'**bold** and `x`\n\n```js\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |'}
      />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('pre code.language-js .hljs-keyword')?.textContent).toBe(
      'const',
    );
    expect(container.querySelectorAll('td')).toHaveLength(2);
    // The language sits in the bar above the code, beside the copy button, not over the code.
    const bar = container.querySelector('.atrium-md-code-bar');
    expect(bar?.querySelector('.atrium-md-code-lang')?.textContent).toBe('js');
    expect(bar?.querySelector('button[aria-label]')).not.toBeNull();
    expect(bar?.nextElementSibling?.tagName).toBe('PRE');
  });

  it('labels a fence without a language as code', () => {
    const { container } = renderWithProviders(<ChatMarkdown text={'```\nplain\n```'} />);
    expect(container.querySelector('.atrium-md-code-lang')?.textContent).toMatch(/^(Code|代码)$/);
  });

  it('never turns raw HTML or javascript: links into live markup', () => {
    const { container } = renderWithProviders(
      <ChatMarkdown
        text={'<img src=x onerror="alert(1)"> <script>alert(2)</script> [go](javascript:alert(3))'}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });
});
