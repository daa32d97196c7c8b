/** A file as the test server keeps it. */
export interface ListedFile {
  id: number;
  categoryId: number;
  name: string;
  type: string;
  size: number;
}

/**
 * The files one `list` call shows, filtered and ordered as the server does (issue 17): within
 * `inScope` (the category and below), by name words, types and dates (createdAt is the id here),
 * sorted by name, size or date, then one page of them.
 */
export function listPage<F extends ListedFile>(
  inScope: readonly F[],
  body: Record<string, unknown>,
  pageSize = 10,
): { page: number; pageSize: number; total: number; files: F[] } {
  const page = Number(body.page ?? 1);
  const keywords = String(body.keywords ?? '')
    .trim()
    .toLowerCase();
  const rawTypes: unknown = body.types;
  const types = Array.isArray(rawTypes) ? (rawTypes as unknown[]).map(String) : undefined;
  const from = body.from === undefined ? -Infinity : Number(body.from);
  const to = body.to === undefined ? Infinity : Number(body.to);
  const kept = inScope.filter(
    (f) =>
      f.name.toLowerCase().includes(keywords) &&
      (!types || types.includes(f.type)) &&
      f.id >= from &&
      f.id <= to,
  );
  const sortKey = String(body.sort ?? 'date');
  const desc = body.order ? body.order === 'desc' : sortKey !== 'name';
  const sign = desc ? -1 : 1;
  const byName = (a: F, b: F) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const ordered = [...kept].sort((a, b) => {
    const by = sortKey === 'name' ? byName(a, b) : sortKey === 'size' ? a.size - b.size : 0;
    return sign * (by || a.id - b.id);
  });
  const files = ordered.slice((page - 1) * pageSize, page * pageSize);
  return { page, pageSize, total: ordered.length, files };
}
