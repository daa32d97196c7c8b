import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useT } from '@/lib/i18n';

export interface NotFoundProps {
  title?: string;
  text?: string;
}

export function NotFound({ title, text }: NotFoundProps) {
  const { t } = useT();
  return (
    <Result
      status="404"
      title={title ?? t('notFound.title')}
      subTitle={text ?? t('notFound.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
    />
  );
}
