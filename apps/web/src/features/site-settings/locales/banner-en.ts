import type { BannerMessages } from './banner-zh-cn';

/** The home banner's words, English. */
export const bannerEn: BannerMessages = {
  'siteBanner.label': 'Banner {{n}} of {{count}}',
  'siteBanner.prev': 'Previous banner',
  'siteBanner.next': 'Next banner',
};
