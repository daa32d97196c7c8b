import { toast } from './feedback';
import { t } from './i18n';

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    // The only way to copy on a plain-http page, where navigator.clipboard does not exist; no
    // successor exists for insecure contexts, and the default install is served over http.
    // oxlint-disable-next-line typescript/no-deprecated -- see above
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copies `text` and tells the user ("Copy Success" / "Copy Fail"). The async clipboard needs a
 * secure context; plain-http deployments fall back to a hidden selection.
 */
export async function copyText(text: string): Promise<boolean> {
  let copied: boolean;
  if (typeof navigator !== 'undefined' && navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch {
      copied = copyWithSelection(text);
    }
  } else {
    copied = copyWithSelection(text);
  }
  if (copied) toast.success(t('copy.success'));
  else toast.error(t('copy.fail'));
  return copied;
}
