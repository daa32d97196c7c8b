export interface Keyed {
  key: string;
  path: string;
}

/**
 * Gives each path of `next` a key that stays with it across changes: a path keeps the key it had
 * (the first unused one when a path appears twice); new paths get fresh keys. A sortable list
 * needs this to know which tile moved.
 */
export function assignKeys(
  previous: readonly Keyed[],
  next: readonly string[],
  freshKey: () => string,
): Keyed[] {
  const pool = new Map<string, string[]>();
  for (const item of previous) {
    const keys = pool.get(item.path) ?? [];
    keys.push(item.key);
    pool.set(item.path, keys);
  }
  return next.map((path) => ({ path, key: pool.get(path)?.shift() ?? freshKey() }));
}

export function samePaths(keyed: readonly Keyed[], paths: readonly string[]): boolean {
  return keyed.length === paths.length && keyed.every((item, i) => item.path === paths[i]);
}
