import type { ReactElement, ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/components/app-providers';
import { FeedbackBridge } from '@/components/feedback-bridge';
import { queryClient } from '@/lib/query-client';

function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider>
        <FeedbackBridge />
        {children}
      </ConfigProvider>
    </QueryClientProvider>
  );
}

/** Renders inside the app's providers (query cache, antd, toast and dialog holders). */
export function renderWithProviders(ui: ReactElement): RenderResult {
  return render(ui, { wrapper: Providers });
}

/** Renders routes in a memory router at `path`, inside the app's providers. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(<RouterProvider router={router} />, { wrapper: Providers });
  return { ...result, router };
}

/** Renders routes in a memory router inside the real AppProviders (theme, locale, overlay). */
export function renderApp(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}
