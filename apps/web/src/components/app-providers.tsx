import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';
import { usePreferencesStore } from '@/stores/preferences-store';
import { FeedbackBridge } from './feedback-bridge';
import { LoadingOverlay } from './loading-overlay';

export const brandColor = '#4f46e5';

/** Query cache, antd theme and locale, and the holders of toasts, dialogs and the overlay. */
export function AppProviders({ children }: { children: ReactNode }) {
  const mode = usePreferencesStore((s) => s.theme);
  const language = usePreferencesStore((s) => s.language);

  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={language === 'en' ? enUS : zhCN}
        theme={{
          algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: { colorPrimary: brandColor, borderRadius: 8, fontSize: 14 },
          components: {
            Layout: mode === 'dark' ? {} : { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f6fa' },
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
