import { Card, Empty, Flex, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import type { Library } from '@atrium/shared/contract/files';
import { useFilesT } from '@/components/file-library/i18n';
import { isLibrary, libraryKeys } from '@/components/file-library/libraries';
import { FilePicker } from '@/components/file-library/file-picker/file-picker';
import { useLibraryPermission } from '@/components/file-library/file-picker/permission';

const adminFileManagerUrl = '/admin/data/file_manager';

/** The library page manages many files at once: check as many as a page shows and more. */
const manageMax = 999;

/** Admin "Files" (`#/data/file_manager`): the shared library, one tab per kind of file. */
export function FilesPage() {
  const t = useFilesT();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('library');
  const library: Library = isLibrary(requested) ? requested : 'image';
  const permission = useLibraryPermission(adminFileManagerUrl);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('files.pageAdmin')}
      </Typography.Title>
      <Card styles={{ body: { paddingTop: 8 } }}>
        {permission.view ? (
          <Tabs
            activeKey={library}
            onChange={(key) =>
              setSearch(key === 'image' ? {} : { library: key }, { replace: true })
            }
            destroyOnHidden
            items={libraryKeys.map((key) => ({
              key,
              label: t(`files.library.${key}`),
              children: (
                <FilePicker mode="flat" url={adminFileManagerUrl} category={key} max={manageMax} />
              ),
            }))}
          />
        ) : (
          <Empty description={t('files.noPermission')} />
        )}
      </Card>
    </Flex>
  );
}
