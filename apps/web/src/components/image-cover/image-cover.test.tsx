import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImageCover, ratioOf } from './image-cover';

describe('ImageCover', () => {
  it('is square without a ratio and follows "w:h" otherwise', () => {
    expect(ratioOf(undefined)).toBe(1);
    expect(ratioOf('16:9')).toBeCloseTo(0.5625);
    expect(ratioOf('4 : 3')).toBeCloseTo(0.75);
    expect(ratioOf('0:3')).toBe(1);
    expect(ratioOf('wide')).toBe(1);
  });

  it('shows the image as a background cover at that height', () => {
    const { container } = render(
      <ImageCover src="/data/image/ab/cover.png" ratio="2:1" alt="Cover" />,
    );
    const el = container.firstElementChild as HTMLElement;
    expect(el.style.paddingTop).toBe('50%');
    expect(el.style.backgroundImage).toBe('url("/data/image/ab/cover.png")');
    expect(el.style.backgroundSize).toBe('cover');
    expect(el.getAttribute('aria-label')).toBe('Cover');
  });

  it('keeps a hostile address inside the url() string', () => {
    const { container } = render(<ImageCover src={'x") ; background: red; ("'} />);
    const el = container.firstElementChild as HTMLElement;
    expect(el.style.backgroundColor).not.toBe('red');
  });
});
