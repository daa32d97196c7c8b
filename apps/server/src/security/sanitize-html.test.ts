import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './sanitize-html';

describe('sanitizeRichText', () => {
  it('keeps what the editor makes', () => {
    const html =
      '<h2>Title</h2><p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code></p>' +
      '<ul><li><p>one</p></li></ul><ol start="3"><li><p>two</p></li></ol>' +
      '<blockquote><p>q</p></blockquote><pre><code class="language-js">x</code></pre>' +
      '<p><a href="https://example.com/" target="_blank" rel="noopener noreferrer">link</a></p>' +
      '<img src="/data/image/ab/cd.png" alt="pic" />';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('drops scripts with their text, event handlers and styles', () => {
    expect(sanitizeRichText('<p>a</p><script>alert(1)</script><style>p{}</style>')).toBe(
      '<p>a</p>',
    );
    expect(sanitizeRichText('<img src="/x.png" onerror="alert(1)">')).toBe('<img src="/x.png" />');
    expect(sanitizeRichText('<p onclick="x()" style="color:red">t</p>')).toBe('<p>t</p>');
    expect(sanitizeRichText('<iframe src="https://e.com"></iframe><svg onload="x()"></svg>')).toBe(
      '',
    );
  });

  it('drops javascript:, data: and protocol-relative addresses', () => {
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<a href=" JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<img src="data:image/png;base64,AAAA">')).toBe('<img />');
    expect(sanitizeRichText('<img src="//evil.example/x.png">')).toBe('<img />');
  });

  it('forces rel on links opening a new tab and drops other targets', () => {
    expect(sanitizeRichText('<a href="/a" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="/a" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="/a" target="_top">x</a>')).toBe('<a href="/a">x</a>');
  });
});
