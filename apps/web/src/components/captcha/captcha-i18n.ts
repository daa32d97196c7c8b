import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n';

const zhCN = {
  'captcha.label': '图形验证码',
  'captcha.placeholder': '输入图中字符',
  'captcha.required': '请输入图形验证码',
  'captcha.imageAlt': '图形验证码，点击刷新',
};
type CaptchaKey = keyof typeof zhCN;

const en: Record<CaptchaKey, string> = {
  'captcha.label': 'Captcha',
  'captcha.placeholder': 'Text in image',
  'captcha.required': 'Please enter the captcha',
  'captcha.imageAlt': 'Captcha image, click to refresh',
};

// The control's own words; "Click to refresh" comes from the core messages.
i18n.addResourceBundle('zh-CN', 'translation', zhCN, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);

export function useCaptchaT(): (key: CaptchaKey) => string {
  const { t } = useTranslation();
  return (key) => t(key);
}
