import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessagingForm, MessagingView } from '@atrium/shared/contract/accounts';
import { fetchData, type ApiError, type RequestOptions } from '@/lib/api';
import { accountKeys } from './keys';

function saveMessaging(body: MessagingForm, options: RequestOptions = {}): Promise<MessagingView> {
  return fetchData('admin', 'system/message/save', body, options);
}

export function useSaveMessaging() {
  const client = useQueryClient();
  return useMutation<MessagingView, ApiError, { body: MessagingForm; quiet?: boolean }>({
    mutationFn: ({ body, quiet }) => saveMessaging(body, { successToast: !quiet }),
    onSuccess: (view) => client.setQueryData(accountKeys.messaging, view),
  });
}
