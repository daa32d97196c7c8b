import { describe, expect, it } from 'vitest';

/**
 * Every text in a locale bundle is one a screen shows: a key no code names is dead weight that
 * translators keep paying for. Keys are named as literals, or built from a prefix in a template
 * (`files.library.${key}`); menu titles arrive as data from the shared menu.
 */
const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const sharedSources = import.meta.glob<string>('../../../../packages/shared/src/**/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});

const isLocale = (path: string) => /\/locales\/[\w-]+\.ts$/.test(path);
const keyLine = /^\s*'([\w.-]+)':/gm;

function bundleKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [path, text] of Object.entries(sources)) {
    if (!isLocale(path)) continue;
    for (const match of text.matchAll(keyLine)) keys.set(match[1] ?? '', path);
  }
  return keys;
}

describe('locale bundles', () => {
  const code = [
    ...Object.entries(sources)
      .filter(([path]) => !isLocale(path) && !path.endsWith('/i18n-keys.test.ts'))
      .map(([, text]) => text),
    ...Object.values(sharedSources),
  ].join('\n');
  const prefixes = [...code.matchAll(/`([\w.-]+\.)\$\{/g)].map((match) => match[1] ?? '');

  it('finds the bundles and the code it checks', () => {
    // Guards the globs: a moved folder must not turn this into a test of nothing.
    expect(bundleKeys().size).toBeGreaterThan(300);
    expect(code).toContain("'menu.dashboard'");
    expect(prefixes).toContain('files.library.');
  });

  it('holds no text that no code names', () => {
    const unused = [...bundleKeys()]
      .filter(([key]) => !prefixes.some((prefix) => key.startsWith(prefix)))
      .filter(([key]) => !new RegExp(`['"\`]${key.replace(/[.-]/g, '\\$&')}['"\`]`).test(code))
      .map(([key, path]) => `${key} (${path})`);
    expect(unused).toEqual([]);
  });
});
