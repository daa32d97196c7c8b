import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Highlight } from './highlight';

afterEach(cleanup);

describe('Highlight', () => {
  it('marks every case-insensitive occurrence and keeps the original casing', () => {
    const { container } = render(<Highlight text="Report.pdf and report-2.PDF" keyword="pdf" />);
    const marks = Array.from(container.querySelectorAll('mark')).map((m) => m.textContent);
    expect(marks).toEqual(['pdf', 'PDF']);
    expect(container.textContent).toBe('Report.pdf and report-2.PDF');
  });

  it('shows the text unmarked without a keyword', () => {
    const { container } = render(<Highlight text="plain" keyword="  " />);
    expect(container.querySelector('mark')).toBeNull();
    expect(container.textContent).toBe('plain');
  });

  it('never turns the text or the keyword into markup', () => {
    const text = '<img src=x onerror="alert(1)"> <b>bold</b>';
    const { container } = render(<Highlight text={text} keyword="<b>" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe(text);
    expect(container.querySelector('mark')?.textContent).toBe('<b>');
  });

  it('treats regex characters in the keyword literally', () => {
    const { container } = render(<Highlight text="a.c abc (x)" keyword="(x)" />);
    expect(Array.from(container.querySelectorAll('mark')).map((m) => m.textContent)).toEqual([
      '(x)',
    ]);
  });
});
