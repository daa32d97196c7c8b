import type { ChatExportRequest } from '@atrium/shared/contract/chat-export';
import { announce, callHeaders, readAnswer, transportFailure } from '@/lib/api';
import { apiUrl } from '@/lib/urls';
import { useApiStore } from '@/stores/api-store';

/** The file name of a `Content-Disposition` answer: the UTF-8 one when given (RFC 6266). */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // Falls through to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1];
}

/**
 * Asks for an export and saves the file the browser receives under the server's name. A refusal
 * is the usual envelope, announced like any call's. Answers the file name, or undefined.
 */
export async function downloadExport(body: ChatExportRequest): Promise<string | undefined> {
  const { baseUrl, tokenKey, setToken } = useApiStore.getState();
  let response: Response;
  try {
    response = await fetch(apiUrl('aigc/conversation/export', undefined, baseUrl), {
      method: 'POST',
      headers: { ...callHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (error) {
    announce(transportFailure(error instanceof Error ? error.message : String(error)), {
      successToast: false,
      errorToast: true,
    });
    return undefined;
  }
  const name = dispositionName(response.headers.get('content-disposition'));
  if (!response.ok || name === undefined) {
    const { result } = readAnswer({
      status: response.status,
      statusText: response.statusText,
      text: await response.text().catch(() => ''),
      header: (header) => response.headers.get(header),
    });
    announce(result, { successToast: false, errorToast: true });
    return undefined;
  }
  const fresh = response.headers.get(tokenKey);
  if (fresh !== null) setToken(fresh);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
