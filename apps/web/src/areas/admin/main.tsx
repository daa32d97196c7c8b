import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { TokenKey } from '@atrium/shared/limits';
import { AppProviders } from '@/components/app-providers';
import { currentLanguage } from '@/lib/i18n';
import { getRoots } from '@/lib/urls';
import { useApiStore } from '@/stores/api-store';
import { createAdminRouter } from './routes';
import '@/styles.css';

useApiStore.getState().configure({ baseUrl: getRoots().adminRoot, tokenKey: TokenKey.admin });
document.documentElement.lang = currentLanguage();

const container = document.getElementById('app');
if (!container) throw new Error('The page has no #app element to mount into');

const router = createAdminRouter();

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
