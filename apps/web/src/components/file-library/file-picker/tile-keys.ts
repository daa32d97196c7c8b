/** The grid's keyboard model (issue 29, WordPress's media modal as the floor), free of React. */

export type TileKeyAction =
  { kind: 'move'; index: number } | { kind: 'toggle' } | { kind: 'confirm' } | { kind: 'none' };

/**
 * What a key does on tile `index` of `count` tiles laid out in `columns` columns: arrows move
 * (Up/Down by a row, never past either end), Home/End go to the first/last tile, Space toggles,
 * Enter confirms where there is something to confirm and toggles otherwise (a flat library).
 */
export function tileKeyAction(
  key: string,
  index: number,
  count: number,
  columns: number,
  canConfirm: boolean,
): TileKeyAction {
  const to = (next: number): TileKeyAction =>
    next >= 0 && next < count && next !== index ? { kind: 'move', index: next } : { kind: 'none' };
  switch (key) {
    case 'ArrowRight':
      return to(index + 1);
    case 'ArrowLeft':
      return to(index - 1);
    case 'ArrowDown':
      return to(index + columns);
    case 'ArrowUp':
      return to(index - columns);
    case 'Home':
      return to(0);
    case 'End':
      return to(count - 1);
    case ' ':
      return { kind: 'toggle' };
    case 'Enter':
      return canConfirm ? { kind: 'confirm' } : { kind: 'toggle' };
    default:
      return { kind: 'none' };
  }
}

/** How many columns a CSS grid shows now (1 when it is not laid out, as in a test DOM). */
export function gridColumns(element: HTMLElement | null): number {
  if (!element) return 1;
  const template = getComputedStyle(element).gridTemplateColumns;
  const columns = template.trim() ? template.trim().split(/\s+/).length : 1;
  return columns > 0 && !template.includes('repeat') ? columns : 1;
}
