/** The part of a path after the last "/" (SPEC 2.5), without a query or fragment. */
export function fileNameOf(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const name = bare.slice(bare.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name) || path;
  } catch {
    return name || path;
  }
}

/** Paths without the empty ones, so a form value of `undefined`, `[]` or `['']` all mean none. */
export function pathList(value: readonly string[] | undefined | null): string[] {
  return (value ?? []).filter((path) => typeof path === 'string' && path !== '');
}

/** Moves one item, as a drag and drop does. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(to, 0, item);
  return next;
}
