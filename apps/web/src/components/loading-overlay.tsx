import { Spin } from 'antd';
import { useLoadingStore } from '@/lib/loading';
import { useT } from '@/lib/i18n';

/** The full-page overlay opened by showLoading(). */
export function LoadingOverlay() {
  const { t } = useT();
  const top = useLoadingStore((s) => s.stack[s.stack.length - 1]);
  if (!top) return null;
  return <Spin fullscreen spinning description={top.text ?? t('loading.text')} />;
}
