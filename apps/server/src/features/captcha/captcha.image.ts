import { createHash, randomFillSync, randomInt } from 'node:crypto';
import { captchaAlphabet, captchaLength } from '@atrium/shared/contract/accounts';
import sharp from 'sharp';

/**
 * The captcha picture (DESIGN 7). A matcher read every character of the old SVG drawing, where
 * each one was its own glyph path (DESIGN 9), so this one is a PNG in which no character is one
 * isolated shape: neighbours run into each other, the whole text is warped by sine waves, two
 * curves run through it and specks cover everything.
 *
 * Drawn at twice the size the control shows (40 px high, 3:1), so it stays sharp on HiDPI screens.
 */
export const captchaDrawing = { width: 240, height: 80 } as const;

const { width, height } = captchaDrawing;

/** Its own light background, so the image reads the same on a dark page. */
const background = [0xf4, 0xf6, 0xfb] as const;
/** Dark inks that read well on the background; one is picked per image. */
const inks = [
  [0x2b, 0x35, 0x50],
  [0x3a, 0x2e, 0x5c],
  [0x1f, 0x4a, 0x4f],
  [0x4a, 0x2f, 0x2f],
] as const;

/**
 * The characters as pen strokes on a 10 x 14 grid (y down, baseline at 14), drawn with a thick
 * round pen. Our own strokes rather than a font's glyphs: every point moves a little on each draw,
 * so there is no fixed shape to match, and a bold pen stays readable through the warp where an
 * outline font breaks up. Only absolute M, L and C commands: every number pair is a point.
 */
const strokes: Record<string, string> = {
  A: 'M0 14 L5 0 L10 14 M2.2 9 L7.8 9',
  B: 'M1 14 L1 0 L5.5 0 C10 0 10 7 5.5 7 L1 7 M5.5 7 C10.8 7 10.8 14 5.5 14 L1 14',
  C: 'M10 2.5 C8 -0.7 0 -0.7 0 7 C0 14.7 8 14.7 10 11.5',
  D: 'M1 0 L1 14 L4.5 14 C11.5 14 11.5 0 4.5 0 L1 0',
  E: 'M9.5 0 L1 0 L1 14 L9.5 14 M1 7 L7.5 7',
  F: 'M9.5 0 L1 0 L1 14 M1 7 L7.5 7',
  G: 'M10 2.5 C8 -0.7 0 -0.7 0 7 C0 14.7 9.5 14.7 10 10 L10 8 L5.5 8',
  H: 'M1 0 L1 14 M9 0 L9 14 M1 7 L9 7',
  J: 'M4 0 L9 0 L9 9.5 C9 15 1 15 0.5 10.5',
  K: 'M1 0 L1 14 M9.5 0 L1 9 M4 6 L10 14',
  L: 'M1 0 L1 14 L9.5 14',
  M: 'M0 14 L1 0 L5 9.5 L9 0 L10 14',
  N: 'M1 14 L1 0 L9 14 L9 0',
  P: 'M1 14 L1 0 L5.5 0 C10.5 0 10.5 7.5 5.5 7.5 L1 7.5',
  Q: 'M5 0 C-1.5 0 -1.5 14 5 14 C11.5 14 11.5 0 5 0 M5.5 9 L10 15',
  R: 'M1 14 L1 0 L5.5 0 C10.5 0 10.5 7.5 5.5 7.5 L1 7.5 M5 7.5 L10 14',
  S: 'M9.5 2 C8 -0.7 0.8 -0.7 0.8 3.5 C0.8 7 9.5 6.5 9.5 10.5 C9.5 14.7 1.5 14.7 0.3 12',
  T: 'M0 0 L10 0 M5 0 L5 14',
  U: 'M1 0 L1 9.5 C1 14.7 9 14.7 9 9.5 L9 0',
  V: 'M0 0 L5 14 L10 0',
  W: 'M0 0 L2.5 14 L5 4 L7.5 14 L10 0',
  X: 'M0.5 0 L9.5 14 M9.5 0 L0.5 14',
  Y: 'M0 0 L5 7 L10 0 M5 7 L5 14',
  Z: 'M0.5 0 L9.5 0 L0.5 14 L10 14',
  '2': 'M0.5 3.5 C1 -1.2 9.5 -1.2 9.5 3.5 C9.5 7 2.5 9 0.3 14 L10 14',
  '3': 'M0.5 1.8 C2 -0.8 9.5 -0.6 9.5 3.5 C9.5 6.3 7 7 4 7 C7 7 10 7.8 10 10.5 C10 14.8 2 14.8 0 12.3',
  '4': 'M7.5 14 L7.5 0 L0 10 L10 10',
  '5': 'M9.5 0 L1.8 0 L1 6.3 C3 4.8 9.8 4.3 9.8 9.5 C9.8 14.8 2 14.7 0.3 12',
  '6': 'M9 1.5 C7 -1 0.5 -0.5 0.5 8.5 C0.5 14.7 9.5 14.7 9.5 9.8 C9.5 4.8 1.5 4.5 0.7 9',
  '7': 'M0 0 L10 0 L3.5 14',
  '8': 'M5 7 C-0.3 7 0 0 5 0 C10 0 10.3 7 5 7 C-0.8 7 -0.8 14 5 14 C10.8 14 10.8 7 5 7',
  '9': 'M9.3 5 C8.5 9.5 0.5 9.7 0.5 5 C0.5 -0.5 9.5 -1 9.5 5 C9.5 11.5 6 14.5 1 13.3',
};

/**
 * Random numbers from the CSPRNG, fetched in blocks: Math.random's state can be recovered from
 * its outputs, and then every later drawing would be known in advance.
 */
class Random {
  private readonly block = new Uint32Array(1024);
  private next = this.block.length;

  /** Uniform in [0, 1). */
  unit(): number {
    if (this.next === this.block.length) {
      randomFillSync(this.block);
      this.next = 0;
    }
    return (this.block[this.next++] ?? 0) / 0x1_0000_0000;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.unit();
  }

  sign(): number {
    return this.unit() < 0.5 ? -1 : 1;
  }
}

/** A fresh captcha text from the CSPRNG. */
export function captchaText(): string {
  let text = '';
  for (let i = 0; i < captchaLength; i++)
    text += captchaAlphabet[randomInt(captchaAlphabet.length)];
  return text;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Letter height in px, before the random scale of each letter. */
const letterHeight = 50;
/** Width of the pen in px: bold enough to read at half size. */
const pen = { min: 5.5, max: 7 };

/** A sine wave that moves pixels across one axis as a function of the other. */
interface Wave {
  amplitude: number;
  length: number;
  phase: number;
}

/** Everything random about one captcha; `renderCaptcha` turns it into pixels. */
export interface CaptchaScene {
  /** Each letter's strokes, placed, as SVG path data in px. */
  letters: string[];
  /** Curves through the text, as SVG path data in px with their stroke width. */
  curves: { d: string; width: number }[];
  /** Width of the letters' strokes in px. */
  pen: number;
  /** Horizontal shift by row, and two vertical shifts by column that add up. */
  warp: { x: Wave; y: [Wave, Wave] };
  /** Ink specks (0 punches a gap), 2 px square when `big`. */
  specks: { x: number; y: number; ink: number; big: boolean }[];
  colour: readonly [number, number, number];
}

const wave = (random: Random, amplitude: [number, number], length: [number, number]): Wave => ({
  amplitude: random.between(...amplitude),
  length: random.between(...length),
  phase: random.between(0, 2 * Math.PI),
});

const shift = (w: Wave, at: number) =>
  w.amplitude * Math.sin((2 * Math.PI * at) / w.length + w.phase);

/**
 * Lays out `text`: each letter gets its own scale, rotation and slant, every point of its strokes
 * is nudged, and each starts before the previous one ends, so neighbours run into each other.
 */
export function captchaScene(text: string): CaptchaScene {
  const random = new Random();
  const chars = [...text];
  const sizes = chars.map(() => {
    const unit = (letterHeight / 14) * random.between(0.92, 1.06);
    const widen = random.between(1.2, 1.45);
    return { unit, widen, drawnWidth: 10 * unit * widen };
  });
  const advances = sizes.map((l) => l.drawnWidth * random.between(0.77, 0.87));
  const span =
    advances.slice(0, -1).reduce((sum, a) => sum + a, 0) + (sizes.at(-1)?.drawnWidth ?? 0);
  // A text of wide letters is squeezed rather than cut off at the edges.
  const squeeze = Math.min(1, (width - 16) / span);
  let left = (width - span * squeeze) / 2 + random.between(-8, 8);
  const penWidth = random.between(pen.min, pen.max);

  const letters = chars.map((char, i) => {
    const d = strokes[char];
    const size = sizes[i];
    if (d === undefined || size === undefined) throw new Error(`no captcha strokes for ${char}`);
    const sx = size.unit * size.widen * squeeze;
    const sy = size.unit;
    const cx = left + (size.drawnWidth * squeeze) / 2;
    const cy = height / 2 + random.between(-4, 4);
    left += (advances[i] ?? 0) * squeeze;
    const angle = ((random.between(2, 12) * random.sign()) / 180) * Math.PI;
    const slant = random.between(-0.2, 0.2);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    return d.replace(/(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g, (_, gx: string, gy: string) => {
      const x = (Number(gx) - 5 + random.between(-0.4, 0.4)) * sx;
      const y = (Number(gy) - 7 + random.between(-0.4, 0.4)) * sy;
      const slanted = x + slant * y;
      return `${round(cx + slanted * cos - y * sin)} ${round(cy + slanted * sin + y * cos)}`;
    });
  });

  // Curves from edge to edge through the band of text, finer than the pen so a reader can tell
  // them from strokes; the crowding of the letters is what keeps them apart from a program.
  const band = () => random.between(height * 0.3, height * 0.7);
  const curves = [penWidth * random.between(0.55, 0.7), random.between(1.8, 2.4)].map((stroke) => ({
    d:
      `M${round(random.between(0, 12))} ${round(band())} ` +
      `C${round(random.between(50, 90))} ${round(random.between(0, height))} ` +
      `${round(random.between(150, 190))} ${round(random.between(0, height))} ` +
      `${round(random.between(width - 12, width))} ${round(band())}`,
    width: round(stroke),
  }));

  const specks = Array.from({ length: Math.round((width * height) / 90) }, (_, n) => ({
    x: Math.floor(random.unit() * (width - 1)),
    y: Math.floor(random.unit() * (height - 1)),
    ink: random.unit() < 0.75 ? Math.round(random.between(110, 255)) : 0,
    // Every other speck is 2 px square: a single pixel would vanish when the browser scales down.
    big: n % 2 === 0,
  }));

  return {
    letters,
    curves,
    pen: round(penWidth),
    warp: {
      x: wave(random, [3, 5], [55, 90]),
      y: [wave(random, [4, 6.5], [110, 180]), wave(random, [1, 2], [35, 55])],
    },
    specks,
    colour: inks[Math.floor(random.unit() * inks.length)] ?? inks[0],
  };
}

/** Letters and curves in one colour, as coverage from 0 to 255 per pixel. */
async function strokeCoverage(scene: CaptchaScene): Promise<Buffer> {
  const letters = scene.letters.map((d) => `<path d="${d}"/>`).join('');
  const curves = scene.curves.map((c) => `<path d="${c.d}" stroke-width="${c.width}"/>`).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<g fill="none" stroke="#000" stroke-linecap="round" stroke-linejoin="round" ` +
    `stroke-width="${scene.pen}">${letters}${curves}</g></svg>`;
  return sharp(Buffer.from(svg)).extractChannel(3).raw().toBuffer();
}

/**
 * Moves every pixel along the scene's sine waves, so strokes bend and no letter keeps a straight
 * line. Samples between pixels, so edges stay smooth.
 */
function warp(ink: Uint8Array, scene: CaptchaScene): Uint8Array {
  const out = new Uint8Array(width * height);
  const [wave1, wave2] = scene.warp.y;
  const shiftY = Float64Array.from({ length: width }, (_, x) => shift(wave1, x) + shift(wave2, x));
  for (let y = 0; y < height; y++) {
    const shiftX = shift(scene.warp.x, y);
    for (let x = 0; x < width; x++) {
      const sx = x + shiftX;
      const sy = y + (shiftY[x] ?? 0);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const top = (ink[i] ?? 0) * (1 - fx) + (ink[i + 1] ?? 0) * fx;
      const bottom = (ink[i + width] ?? 0) * (1 - fx) + (ink[i + width + 1] ?? 0) * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return out;
}

/** The PNG of a scene. */
export async function renderCaptcha(scene: CaptchaScene): Promise<Buffer> {
  const ink = warp(await strokeCoverage(scene), scene);
  for (const speck of scene.specks) {
    const i = speck.y * width + speck.x;
    ink[i] = speck.ink;
    if (speck.big) {
      ink[i + 1] = speck.ink;
      ink[i + width] = speck.ink;
      ink[i + width + 1] = speck.ink;
    }
  }

  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < ink.length; i++) {
    const a = (ink[i] ?? 0) / 255;
    for (let c = 0; c < 3; c++) {
      rgb[i * 3 + c] = Math.round((background[c] ?? 0) * (1 - a) + (scene.colour[c] ?? 0) * a);
    }
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** A new PNG of `text`. */
export function drawCaptcha(text: string): Promise<Buffer> {
  return renderCaptcha(captchaScene(text));
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A short name of one image, for a log line that must not hold the whole picture. */
export function captchaImageId(image: string): string {
  return createHash('sha256').update(image).digest('hex').slice(0, 16);
}
