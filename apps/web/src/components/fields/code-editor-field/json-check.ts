/** Where and why a JSON text fails to parse, in the words a person fixes it by. */
export interface JsonError {
  line: number;
  column: number;
  message: string;
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * null when `text` is valid JSON (or empty: an empty field is "no value", which `required`
 * decides). Engines word their errors differently; all of them give the offset, or fail at the end.
 */
export function checkJson(text: string): JsonError | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(raw)?.[1];
    const where = lineColumn(text, offset === undefined ? text.length : Number(offset));
    const message = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s*in JSON at position \d+/, '')
      .replace(/^JSON\.parse: /, '')
      .trim();
    return { ...where, message };
  }
}
