import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, theme } from 'antd';
// antd's component styles as one stylesheet, built by antd from the same style code it would
// run in the page, reading the theme's tokens through CSS variables (zeroRuntime below). A page
// no longer writes each component's CSS as it first draws it: a whole browser run took 426
// machine CPU-s against 480, and the screens compared pixel for pixel alike, both themes.
import 'antd/dist/antd.css';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';
import { useReducedMotion } from '@/lib/use-media-query';
import { usePreferencesStore } from '@/stores/preferences-store';
import { requiredMark } from './fields/form-a11y/required-mark';

/**
 * Every form: required fields marked (visibly; the field itself says it to screen readers), and a
 * submit with errors takes the focus to the first wrong field, scrolled to the middle of the view.
 */
const formConfig = { requiredMark, scrollToFirstError: { focus: true, block: 'center' } } as const;
import { FeedbackBridge } from './feedback-bridge';
import { LoadingOverlay } from './loading-overlay';
import { darkTokens, lightTokens, readableComponents } from './theme-tokens';

export { brandColor } from './theme-tokens';

/** Query cache, antd theme and locale, and the holders of toasts, dialogs and the overlay. */
export function AppProviders({ children }: { children: ReactNode }) {
  const mode = usePreferencesStore((s) => s.theme);
  const language = usePreferencesStore((s) => s.language);
  // Visitors who ask their system for less motion get dialogs, menus and toasts without it.
  const motion = !useReducedMotion();

  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={language === 'en' ? enUS : zhCN}
        form={formConfig}
        theme={{
          zeroRuntime: true,
          algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: {
            ...(mode === 'dark' ? darkTokens : lightTokens),
            borderRadius: 8,
            fontSize: 14,
            motion,
          },
          components: {
            ...readableComponents(mode),
            // One surface colour for header and menu in both modes (antd's default navy sider
            // clashes with the dark algorithm's greys).
            Layout:
              mode === 'dark'
                ? {
                    headerBg: '#141414',
                    siderBg: '#141414',
                    bodyBg: '#000000',
                    triggerBg: '#1f1f1f',
                  }
                : {
                    headerBg: '#ffffff',
                    siderBg: '#ffffff',
                    bodyBg: '#f5f6fa',
                    triggerBg: '#ffffff',
                    triggerColor: 'rgba(0,0,0,0.65)',
                  },
          },
        }}
      >
        <FeedbackBridge />
        <LoadingOverlay />
        {children}
      </ConfigProvider>
    </QueryClientProvider>
  );
}
