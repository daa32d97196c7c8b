/** The picker's selection rules (SPEC 4.4, 5), kept free of React so each rule is tested alone. */

export type ToggleResult<T> = { ok: true; selected: T[] } | { ok: false; reason: 'max' };

/**
 * Clicking an item: a selected one is unselected; an unselected one is added while fewer than
 * `max` are selected; with max 1 it replaces the other; otherwise the click is refused.
 * The list keeps click order, which is the order the selection is returned in.
 */
export function toggleSelection<T>(
  selected: readonly T[],
  item: T,
  max: number,
  same: (a: T, b: T) => boolean,
): ToggleResult<T> {
  if (selected.some((s) => same(s, item)))
    return { ok: true, selected: selected.filter((s) => !same(s, item)) };
  if (selected.length < max) return { ok: true, selected: [...selected, item] };
  if (max === 1) return { ok: true, selected: [item] };
  return { ok: false, reason: 'max' };
}

/**
 * "Select all on this page" (issue 17): adds the page's unselected items after the selection, in
 * page order, when all of them fit under `max`; otherwise refuses and changes nothing.
 */
export function selectAllOf<T>(
  selected: readonly T[],
  items: readonly T[],
  max: number,
  same: (a: T, b: T) => boolean,
): ToggleResult<T> {
  const added = items.filter((item) => !selected.some((s) => same(s, item)));
  if (selected.length + added.length > max) return { ok: false, reason: 'max' };
  return { ok: true, selected: [...selected, ...added] };
}

/** Unselects the page's items, keeping what was selected on other pages. */
export function unselectAllOf<T>(
  selected: readonly T[],
  items: readonly T[],
  same: (a: T, b: T) => boolean,
): T[] {
  return selected.filter((s) => !items.some((item) => same(s, item)));
}

/** The page's "select all" box: every item checked, some of them, or none. */
export function pageCheckState<T>(
  selected: readonly T[],
  items: readonly T[],
  same: (a: T, b: T) => boolean,
): 'all' | 'some' | 'none' {
  const checked = items.filter((item) => selected.some((s) => same(s, item))).length;
  if (checked === 0) return 'none';
  return checked === items.length ? 'all' : 'some';
}

/**
 * The number each checked tile shows: its place in the order handed back (click order, or the
 * reverse), across pages; none with max 1, where there is no order to show.
 */
export function selectionOrder<K>(
  keys: readonly K[],
  max: number,
  reverse: boolean,
): Map<K, number> {
  if (max <= 1) return new Map();
  return new Map(keys.map((key, i) => [key, reverse ? keys.length - i : i + 1]));
}

export type PickerTab = 'list' | 'input';

/** A refused confirm: the message key and the number it names. */
export type ConfirmProblem =
  | { key: 'files.pleaseInput' }
  | { key: 'files.selectAtLeast'; n: number }
  | { key: 'files.selectAtMost'; n: number };

/** SPEC 5 "Picker confirm". */
export function confirmProblem(
  tab: PickerTab,
  input: { path: string; selected: number; min: number; max: number },
): ConfirmProblem | null {
  if (tab === 'input') return input.path.trim() ? null : { key: 'files.pleaseInput' };
  if (input.selected < input.min) return { key: 'files.selectAtLeast', n: input.min };
  if (input.selected > input.max) return { key: 'files.selectAtMost', n: input.max };
  return null;
}

/** One item handed back on confirm (SPEC 3.4). */
export interface PickedFile {
  category?: string;
  filename?: string;
  name?: string;
  path: string;
  fullPath: string;
  type: string;
}

export interface PickableRecord {
  category: string;
  filename: string;
  path: string;
  fullPath: string;
  type: string;
}

export function pickedFromRecords(
  records: readonly PickableRecord[],
  reverse: boolean,
): PickedFile[] {
  const items = records.map(({ category, filename, path, fullPath, type }) => ({
    category,
    filename,
    path,
    fullPath,
    type,
  }));
  return reverse ? items.reverse() : items;
}

/** A path typed by hand: no name, no type, shown as typed (SPEC 3.4). */
export function pickedFromPath(path: string): PickedFile[] {
  const trimmed = path.trim();
  return [{ name: '', path: trimmed, fullPath: trimmed, type: '' }];
}

/** "Reverse Select Order" is offered only when it can change anything (SPEC 2.4). */
export function showReverseOrder(max: number, selected: number): boolean {
  return max > 1 && selected > 1;
}
