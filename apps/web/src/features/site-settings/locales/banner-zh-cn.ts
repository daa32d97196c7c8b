/**
 * The home banner's words, Simplified Chinese: apart from the settings page's, because the
 * member home loads them on its first paint.
 */
export const bannerZhCN = {
  'siteBanner.label': '横幅 {{n}} / {{count}}',
  'siteBanner.prev': '上一张横幅',
  'siteBanner.next': '下一张横幅',
};

export type BannerKey = keyof typeof bannerZhCN;
export type BannerMessages = Record<BannerKey, string>;
