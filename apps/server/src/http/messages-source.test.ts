import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every text a person reads comes from the message catalogue (issue 27): `ApiError` and
 * `refusal` only take a message reference, so the compiler refuses a sentence there. This walks
 * the server's sources for the ways around it: an envelope built with a literal `msg`, `fail()`
 * or `ok()` given a sentence.
 */
const root = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const ways = [
  { name: 'fail() with a text', pattern: /\bfail\(\s*['"`]/ },
  { name: 'ok() with a text', pattern: /\bok\([^()]*,\s*['"`][^'"`]+['"`]\s*\)/ },
  { name: 'an envelope with a literal msg', pattern: /\bmsg:\s*['"`][^'"`]/ },
  { name: 'ApiError with a text', pattern: /new ApiError\(\s*['"`]/ },
];

describe('server messages', () => {
  it('are never written outside the catalogue', () => {
    const found: string[] = [];
    for (const file of sources(root)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const way of ways) {
          if (way.pattern.test(line))
            found.push(`${relative(root, file)}:${index + 1}: ${way.name}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
