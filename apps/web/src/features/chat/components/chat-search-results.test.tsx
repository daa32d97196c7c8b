import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { RangeHighlight } from './chat-search-results';

afterEach(cleanup);

describe('RangeHighlight', () => {
  it('marks the server’s ranges and keeps the text whole', () => {
    const text = '…设计数据库索引时，先看 Index columns';
    const { container } = render(
      <RangeHighlight
        text={text}
        ranges={[
          [3, 8],
          [13, 18],
        ]}
      />,
    );
    const marks = Array.from(container.querySelectorAll('mark')).map((m) => m.textContent);
    expect(marks).toEqual(['数据库索引', 'Index']);
    expect(container.textContent).toBe(text);
  });

  it('never turns the text into markup and skips ranges that do not fit', () => {
    const text = '<img src=x onerror="alert(1)"> <b>bold</b>';
    const { container } = render(
      <RangeHighlight
        text={text}
        ranges={[
          [31, 34],
          [32, 33],
          [40, 99],
        ]}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe(text);
    expect(Array.from(container.querySelectorAll('mark')).map((m) => m.textContent)).toEqual([
      '<b>',
    ]);
  });
});
