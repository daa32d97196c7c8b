import { Result } from 'antd';
import { PermissionRedirect } from '@/components/permission-redirect';
import { useT } from '@/lib/i18n';
import { useVisibleMenu } from '../layout/admin-menu';
import { menuRedirectPairs } from '../layout/menu';

/** "#/" opens the first menu page the admin may open. */
export function IndexRedirect() {
  const { t } = useT();
  const pairs = menuRedirectPairs(useVisibleMenu());
  return (
    <PermissionRedirect
      pairs={pairs}
      fallback={
        <Result status="403" title={t('noPermission.title')} subTitle={t('noPermission.text')} />
      }
    />
  );
}
