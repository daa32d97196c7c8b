import { act, render } from '@testing-library/react';
import { theme, type GlobalToken } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { usePreferencesStore } from '@/stores/preferences-store';
import { AppProviders } from './app-providers';
import { presetColors, tagTextTokens } from './theme-tokens';

type Rgba = [number, number, number, number];

function parse(color: string): Rgba {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  if (short)
    return parse(
      `#${short
        .slice(1)
        .map((d) => `${d}${d}`)
        .join('')}`,
    );
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex?.[1]) {
    const n = parseInt(hex[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const rgba = /^rgba?\(([^)]+)\)$/.exec(color.replace(/\s/g, ''));
  if (!rgba?.[1]) throw new Error(`unreadable colour ${color}`);
  const [r = 0, g = 0, b = 0, a = 1] = rgba[1].split(',').map(Number);
  return [r, g, b, a];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast of `text` (maybe translucent) laid over the opaque `surface`. */
function contrast(text: string, surface: string): number {
  const bg = parse(surface);
  const fg = parse(text);
  const a = fg[3];
  const seen: Rgba = [0, 1, 2].map((i) => (fg[i] ?? 0) * a + (bg[i] ?? 0) * (1 - a)) as Rgba;
  const [hi, lo] = [luminance(seen), luminance(bg)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

let token: GlobalToken | undefined;
function Probe() {
  token = theme.useToken().token;
  return null;
}

function tokensOf(mode: 'light' | 'dark'): GlobalToken {
  act(() => usePreferencesStore.getState().setTheme(mode));
  render(
    <AppProviders>
      <Probe />
    </AppProviders>,
  );
  if (!token) throw new Error('no token');
  return token;
}

afterEach(() => act(() => usePreferencesStore.getState().setTheme('light')));

/** The text tokens a person reads, on every surface they appear on. */
const texts = [
  'colorText',
  'colorTextSecondary',
  'colorTextTertiary',
  'colorTextDescription',
  'colorTextPlaceholder',
  'colorLink',
  'colorPrimaryText',
  'colorErrorText',
] as const;

const surfaces = {
  // The page behind the cards (Layout bodyBg in app-providers), cards, dialogs and menus.
  light: ['#f5f6fa', 'colorBgContainer', 'colorBgElevated'],
  dark: ['#000000', 'colorBgContainer', 'colorBgElevated'],
} as const;

describe('theme tokens: text reaches WCAG AA (4.5:1) in both themes', () => {
  for (const mode of ['light', 'dark'] as const) {
    it(`${mode}: every text colour on every surface`, () => {
      const t = tokensOf(mode);
      const short: string[] = [];
      for (const name of texts) {
        for (const surface of surfaces[mode]) {
          const bg = surface.startsWith('#') ? surface : String(t[surface as 'colorBgContainer']);
          const ratio = contrast(String(t[name]), bg);
          if (ratio < 4.5) short.push(`${name} ${t[name]} on ${bg}: ${ratio.toFixed(2)}`);
        }
      }
      expect(short).toEqual([]);
    });

    it(`${mode}: the text on primary and danger buttons`, () => {
      const t = tokensOf(mode);
      expect(contrast(t.colorTextLightSolid, t.colorPrimary)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(t.colorTextLightSolid, t.colorError)).toBeGreaterThanOrEqual(4.5);
    });

    it(`${mode}: a tag's text in each named colour on its own pale face`, () => {
      const t = tokensOf(mode) as unknown as Record<string, string>;
      const tags = tagTextTokens(mode);
      const short = presetColors
        .map((color) => [color, contrast(tags[`${color}7`] ?? '', t[`${color}1`] ?? '')] as const)
        .filter(([, ratio]) => ratio < 4.5);
      expect(short).toEqual([]);
    });
  }
});
