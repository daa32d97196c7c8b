import { captchaAlphabet, captchaLength } from '@atrium/shared/contract/accounts';
import { captchaDrawing, drawCaptcha } from './captcha.image';

/**
 * Reads a captcha image the way a test needs to: svg-captcha draws each character as its font
 * glyph at a fixed place with a jitter of ±0.1, so comparing every character path with reference
 * drawings of each alphabet character at each place finds the text. Tests use this to answer the
 * real image instead of reaching into the server's state.
 */

interface Glyph {
  shape: string;
  numbers: number[];
}

const textPaths = /<path fill="(?!none")[^"]*" d="([^"]+)"\/>/g;

function glyph(d: string): Glyph {
  return {
    shape: d.replace(/-?\d+(\.\d+)?/g, '#'),
    numbers: (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number),
  };
}

function glyphsOf(svg: string): Glyph[] {
  return [...svg.matchAll(textPaths)].map((m) => glyph(m[1] ?? ''));
}

let references: { char: string; place: number; glyph: Glyph }[] | undefined;

function referenceGlyphs() {
  references ??= [...captchaAlphabet].flatMap((char) =>
    glyphsOf(drawCaptcha(char.repeat(captchaLength)))
      .sort((a, b) => (a.numbers[0] ?? 0) - (b.numbers[0] ?? 0))
      .map((g, place) => ({ char, place, glyph: g })),
  );
  return references;
}

function distance(a: Glyph, b: Glyph): number {
  if (a.shape !== b.shape) return Number.POSITIVE_INFINITY;
  return a.numbers.reduce((sum, n, i) => sum + Math.abs(n - (b.numbers[i] ?? 0)), 0);
}

/** The text of a captcha drawn by this server, from its SVG or its data URL. */
export function solveCaptcha(image: string): string {
  const svg = image.startsWith('data:')
    ? Buffer.from(image.slice(image.indexOf(',') + 1), 'base64').toString('utf8')
    : image;
  if (!svg.includes(`width="${captchaDrawing.width}"`)) throw new Error('not a captcha image');
  const chars: string[] = [];
  for (const g of glyphsOf(svg)) {
    let best = { d: Number.POSITIVE_INFINITY, char: '?', place: -1 };
    for (const ref of referenceGlyphs()) {
      const d = distance(g, ref.glyph);
      if (d < best.d) best = { d, char: ref.char, place: ref.place };
    }
    if (best.place >= 0) chars[best.place] = best.char;
  }
  return chars.join('');
}
