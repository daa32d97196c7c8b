import { useMutation } from '@tanstack/react-query';
import type { ProviderTestRequest, ProviderTestResponse } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';

/** Lists the provider's models (or asks one for a single token) with the form's values. */
function testProvider(body: ProviderTestRequest): Promise<ProviderTestResponse> {
  return fetchData('admin', 'aigc/provider/test', body);
}

export function useTestProvider() {
  return useMutation<ProviderTestResponse, ApiError, ProviderTestRequest>({
    mutationFn: testProvider,
  });
}
