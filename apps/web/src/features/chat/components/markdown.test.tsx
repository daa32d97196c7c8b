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
