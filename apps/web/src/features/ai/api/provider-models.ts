import { useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';
import { aiKeys } from './keys';

/**
 * The model ids a saved provider lists (its `GET /v1/models`), offered when adding a model. A
 * provider without a list is no error worth a toast: the id is then typed by hand.
 */
export function useProviderModels(providerId: number) {
  return useQuery({
    queryKey: [...aiKeys.all, providerId, 'models'],
    queryFn: ({ signal }) =>
      fetchData(
        'admin',
        'aigc/provider/models',
        { id: providerId },
        { signal, errorToast: false, successToast: false },
      ),
    staleTime: 60_000,
    retry: false,
  });
}
