import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { createHashRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from '@/components/app-providers';
import { currentLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';

interface AreaOptions {
  /** The area's API root (SPEC 3.10 baseUrl). */
  baseUrl: string;
  /** Cookie and header name of the area's token. */
  tokenKey: string;
  createRouter: () => ReturnType<typeof createHashRouter>;
}

/** Starts one area's single-page app in the page's #app element (SPEC 2.2). */
export function mountArea({ baseUrl, tokenKey, createRouter }: AreaOptions): void {
  useApiStore.getState().configure({ baseUrl, tokenKey });
  document.documentElement.lang = currentLanguage();

  const container = document.getElementById('app');
  if (!container) throw new Error('The page has no #app element to mount into');

  const router = createRouter();
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
