/**
 * The chunks of an upload not held yet, as [from, to) ranges in order (init's `missing`). With
 * every chunk held but no result (a lost answer or a crash while finishing), the last one: sent
 * again, it finishes the upload.
 */
export function missingRanges(indexes: Iterable<number>, chunks: number): [number, number][] {
  const held = [...new Set(indexes)].filter((i) => i >= 0 && i < chunks).sort((a, b) => a - b);
  if (held.length === chunks) return [[chunks - 1, chunks]];
  const ranges: [number, number][] = [];
  let next = 0;
  for (const index of held) {
    if (index > next) ranges.push([next, index]);
    next = index + 1;
  }
  if (next < chunks) ranges.push([next, chunks]);
  return ranges;
}
