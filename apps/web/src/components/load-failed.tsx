import { Button, Flex, Result } from 'antd';
import { useT } from '@/lib/i18n';

export interface LoadFailedProps {
  reason: string;
  retrying: boolean;
  onRetry: () => void;
}

/** The site config could not be loaded: say so and offer a retry. */
export function LoadFailed({ reason, retrying, onRetry }: LoadFailedProps) {
  const { t } = useT();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status="warning"
        title={t('app.loadFailed')}
        subTitle={reason}
        extra={
          <Button type="primary" loading={retrying} onClick={onRetry}>
            {t('app.retry')}
          </Button>
        }
      />
    </Flex>
  );
}
