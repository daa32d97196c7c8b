import { Button, Switch } from 'antd';
import { GlobalOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useT } from '@/lib/i18n';
import { usePreferencesStore } from '@/stores/preferences-store';

export function ThemeSwitch() {
  const { t } = useT();
  const mode = usePreferencesStore((s) => s.theme);
  const setTheme = usePreferencesStore((s) => s.setTheme);
  const dark = mode === 'dark';
  return (
    <Switch
      checked={dark}
      onChange={(checked) => setTheme(checked ? 'dark' : 'light')}
      checkedChildren={<MoonOutlined />}
      unCheckedChildren={<SunOutlined />}
      aria-label={t('theme.dark')}
      title={dark ? t('theme.light') : t('theme.dark')}
    />
  );
}

/** Two languages: one button that switches to the other, labelled with the other's name. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t, language } = useT();
  const setLanguage = usePreferencesStore((s) => s.setLanguage);
  const next = language === 'en' ? 'zh-CN' : 'en';
  const label = t(`language.${next}`);
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      onClick={() => setLanguage(next)}
      aria-label={`${t('language.label')}: ${label}`}
      title={label}
    >
      {compact ? null : label}
    </Button>
  );
}
