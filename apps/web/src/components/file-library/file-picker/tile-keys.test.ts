import { describe, expect, it } from 'vitest';
import { tileKeyAction } from './tile-keys';

describe('tileKeyAction', () => {
  it('moves by arrows within the page, by a row up and down, Home/End to the ends', () => {
    expect(tileKeyAction('ArrowRight', 0, 6, 3, true)).toEqual({ kind: 'move', index: 1 });
    expect(tileKeyAction('ArrowLeft', 0, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowRight', 5, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowDown', 1, 6, 3, true)).toEqual({ kind: 'move', index: 4 });
    expect(tileKeyAction('ArrowDown', 4, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowUp', 4, 6, 3, true)).toEqual({ kind: 'move', index: 1 });
    expect(tileKeyAction('End', 1, 6, 3, true)).toEqual({ kind: 'move', index: 5 });
    expect(tileKeyAction('Home', 5, 6, 3, true)).toEqual({ kind: 'move', index: 0 });
  });

  it('Space toggles; Enter confirms, or toggles where nothing is confirmed', () => {
    expect(tileKeyAction(' ', 2, 6, 3, true)).toEqual({ kind: 'toggle' });
    expect(tileKeyAction('Enter', 2, 6, 3, true)).toEqual({ kind: 'confirm' });
    expect(tileKeyAction('Enter', 2, 6, 3, false)).toEqual({ kind: 'toggle' });
    expect(tileKeyAction('a', 2, 6, 3, true)).toEqual({ kind: 'none' });
  });
});
