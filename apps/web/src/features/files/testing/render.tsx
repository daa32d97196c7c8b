import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { FeedbackBridge } from '@/components/feedback-bridge';
import { createQueryClient } from '@/lib/query-client';

/**
 * Renders inside the providers the app gives its pages (antd, toast and dialog holders), with a
 * query cache of its own so every test starts from an empty cache.
 */
export function renderWithProviders(node: ReactNode) {
  const client = createQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <ConfigProvider>
        <FeedbackBridge />
        {node}
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { ...view, client };
}
