import { Card, Flex, Tabs, Typography } from 'antd';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { Library } from '@atrium/shared/contract/files';
import { loginLocation } from '@/lib/login-redirect';
import { useUserStore } from '@/stores/user-store';
import { useFilesT } from '@/components/file-library/i18n';
import { isLibrary, libraryKeys } from '@/components/file-library/libraries';
import {
  defaultFileManagerUrl,
  FilePicker,
} from '@/components/file-library/file-picker/file-picker';

const manageMax = 999;

/** Member "My files" (`#/files`): the member's own library; signed-in members only. */
export function FilesPage() {
  const t = useFilesT();
  const location = useLocation();
  const user = useUserStore((s) => s.user);
  const [search, setSearch] = useSearchParams();
  const requested = search.get('library');
  const library: Library = isLibrary(requested) ? requested : 'image';

  if (user.id === 0) {
    return <Navigate to={loginLocation(`${location.pathname}${location.search}`)} replace />;
  }

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('files.pageMember')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('files.pageMemberHint')}</Typography.Text>
      </div>
      <Card styles={{ body: { paddingTop: 8 } }}>
        <Tabs
          activeKey={library}
          onChange={(key) => setSearch(key === 'image' ? {} : { library: key }, { replace: true })}
          destroyOnHidden
          items={libraryKeys.map((key) => ({
            key,
            label: t(`files.library.${key}`),
            children: (
              <FilePicker mode="flat" url={defaultFileManagerUrl} category={key} max={manageMax} />
            ),
          }))}
        />
      </Card>
    </Flex>
  );
}
