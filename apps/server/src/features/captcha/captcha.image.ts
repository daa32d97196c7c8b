import { randomInt } from 'node:crypto';
import { captchaAlphabet, captchaLength } from '@atrium/shared/contract/accounts';
import svgCaptcha from 'svg-captcha';

/**
 * How the captcha is drawn; the web control shows it 40 px high (SPEC 2.6). Dark grey strokes:
 * the library's colour mode picks pale tints that are hard to read on a light background.
 */
export const captchaDrawing = {
  width: 120,
  height: 40,
  fontSize: 42,
  noise: 2,
  color: false,
} as const;

/** Its own light background, so the image reads the same on a dark page. */
const background = '#f4f6fb';

type Drawing = typeof captchaDrawing;

// svg-captcha's default export draws a given text. Its typings only declare `create`, which picks
// the text with Math.random; the text here comes from the CSPRNG instead.
const drawText = svgCaptcha as unknown as (text: string, options: Drawing) => string;

/** A fresh captcha text from the CSPRNG. */
export function captchaText(): string {
  let text = '';
  for (let i = 0; i < captchaLength; i++)
    text += captchaAlphabet[randomInt(captchaAlphabet.length)];
  return text;
}

/** The SVG drawing of `text`. */
export function drawCaptcha(text: string): string {
  return drawText(text, captchaDrawing).replace(
    /^(<svg[^>]*>)/,
    `$1<rect width="100%" height="100%" rx="4" fill="${background}"/>`,
  );
}

export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
