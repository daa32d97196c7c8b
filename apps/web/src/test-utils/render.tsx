import type { ReactElement, ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/components/app-providers';
import { FeedbackBridge } from '@/components/feedback-bridge';
import { createQueryClient, queryClient } from '@/lib/query-client';

/** As the app: antd's styles come from its stylesheet, not written by each component. */
const zeroRuntime = { zeroRuntime: true } as const;

function providersWith(client: QueryClient) {
  return function Providers({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={client}>
        <ConfigProvider theme={zeroRuntime}>
          <FeedbackBridge />
          {children}
        </ConfigProvider>
      </QueryClientProvider>
    );
  };
}

const Providers = providersWith(queryClient);

/**
 * Renders inside the app's providers (query cache, antd, toast and dialog holders): the app's own
 * query cache, or `queryClient` (a fresh one keeps one test's cached answers from the next).
 */
export function renderWithProviders(
  ui: ReactElement,
  options: { queryClient?: QueryClient } = {},
): RenderResult {
  return render(ui, {
    wrapper: options.queryClient ? providersWith(options.queryClient) : Providers,
  });
}

/** renderWithProviders with a query cache of its own. */
export function renderWithFreshCache(ui: ReactElement): RenderResult {
  return renderWithProviders(ui, { queryClient: createQueryClient() });
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
