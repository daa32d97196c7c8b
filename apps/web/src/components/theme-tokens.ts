import { theme, type ThemeConfig } from 'antd';

export const brandColor = '#4f46e5';

type Tokens = NonNullable<ThemeConfig['token']>;

/**
 * Text colours of both themes, raised to WCAG AA (4.5:1 for body text) on the surfaces they sit
 * on: the page (#f5f6fa / #000), cards and tables (#fff / #141414), dialogs and menus (#fff /
 * #1f1f1f). antd's own greys for hints, counters and placeholders (45 % and 25 % black) and its
 * links (#1677ff) fall short; theme-tokens.test.ts measures every pair. Disabled text keeps
 * antd's grey: WCAG leaves inactive controls out.
 */
export const lightTokens: Tokens = {
  colorPrimary: brandColor,
  // Links in the brand colour (6.3:1 on white), darker when pressed or hovered.
  colorLink: brandColor,
  colorLinkHover: '#3f38c8',
  colorLinkActive: '#3432bf',
  colorTextSecondary: 'rgba(0,0,0,0.65)',
  colorTextTertiary: 'rgba(0,0,0,0.6)',
  colorTextDescription: 'rgba(0,0,0,0.6)',
  colorTextPlaceholder: 'rgba(0,0,0,0.56)',
  // Danger text and the danger button's face: antd's #ff4d4f reads at 3.3:1 on white.
  colorError: '#cf1322',
};

/**
 * In the dark theme the brand indigo is a button face (white on it: 7.5:1) but too dark as text
 * on near-black (2.4:1): text in the primary colour and links take a light indigo instead.
 */
export const darkTokens: Tokens = {
  colorPrimary: brandColor,
  colorPrimaryText: '#9d98f7',
  colorPrimaryTextHover: '#bcb8fa',
  colorPrimaryTextActive: '#8c86f5',
  colorLink: '#9d98f7',
  colorLinkHover: '#bcb8fa',
  colorLinkActive: '#8c86f5',
  colorTextSecondary: 'rgba(255,255,255,0.65)',
  colorTextTertiary: 'rgba(255,255,255,0.6)',
  colorTextDescription: 'rgba(255,255,255,0.6)',
  colorTextPlaceholder: 'rgba(255,255,255,0.55)',
  // The danger button's face deep enough for its white text (5.6:1); danger text light.
  colorError: '#cf1322',
  colorErrorText: '#ff7875',
};

/** The colours antd's Tag takes by name (`<Tag color="gold">`). */
export const presetColors = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;

const tagTokens = new Map<'light' | 'dark', Record<string, string>>();

/**
 * Tag's text in a named colour is the colour's 7th shade on its 1st (gold: 2.9:1 on its pale
 * yellow); the Tag component takes the 9th shade as its 7th instead: 6:1 and more, both themes.
 */
export function tagTextTokens(mode: 'light' | 'dark'): Record<string, string> {
  let tokens = tagTokens.get(mode);
  if (!tokens) {
    const palette = theme.getDesignToken({
      algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    }) as unknown as Record<string, string>;
    tokens = Object.fromEntries(
      presetColors.map((color) => [`${color}7`, palette[`${color}9`] ?? '']),
    );
    tagTokens.set(mode, tokens);
  }
  return tokens;
}

/**
 * Components whose text antd colours outside the text tokens: named tags; a table's "no data"
 * (antd: the disabled grey); the selected menu item and tab (antd: the primary colour, too dark as text in the
 * dark theme).
 */
export function readableComponents(mode: 'light' | 'dark'): NonNullable<ThemeConfig['components']> {
  const tokens = mode === 'dark' ? darkTokens : lightTokens;
  const primaryText = tokens.colorPrimaryText ?? brandColor;
  return {
    Tag: tagTextTokens(mode),
    Table: { colorTextDisabled: tokens.colorTextTertiary },
    Menu: {
      itemSelectedColor: primaryText,
      subMenuItemSelectedColor: primaryText,
      horizontalItemSelectedColor: primaryText,
    },
    Tabs: {
      itemSelectedColor: primaryText,
      itemActiveColor: tokens.colorPrimaryTextActive ?? primaryText,
      itemHoverColor: tokens.colorPrimaryTextHover ?? primaryText,
      inkBarColor: primaryText,
    },
  };
}
