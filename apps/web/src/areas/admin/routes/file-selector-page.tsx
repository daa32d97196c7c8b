import { Card, Empty, Flex, Typography } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { hasRule } from '@atrium/shared/rules';
import { usePermissionStore } from '@/stores/permission-store';
import { toast } from '@/lib/feedback';
import { useFilesT } from '@/components/file-library/i18n';
import { isLibrary } from '@/components/file-library/libraries';
import { FilePicker } from '@/components/file-library/file-picker/file-picker';
import type { PickedFile } from '@/components/file-library/file-picker/selection';

function count(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The library as an external selector (SPEC 2.4): `#/data/file_manager/select/{category}` is
 * what `window.__selectorDialogServer` can point at ("…/#/data/file_manager/select"). Confirm
 * posts `{items}` to the page that framed or opened it, on this origin only.
 */
export function FileSelectorPage() {
  const t = useFilesT();
  const rules = usePermissionStore((s) => s.rules);
  const { category = '' } = useParams();
  const [search] = useSearchParams();
  const min = count(search.get('min'), 1);
  const max = Math.max(min, count(search.get('max'), 1));

  const send = (items: PickedFile[]) => {
    const target =
      window.parent !== window ? window.parent : ((window.opener as Window | null) ?? window);
    target.postMessage({ items }, window.location.origin);
    toast.success(t('files.selected', { n: items.length }));
  };

  if (!isLibrary(category) || !hasRule(rules, 'data/file_manager/view')) {
    return <Empty description={t('files.noPermission')} />;
  }
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('files.pleaseSelect')}
      </Typography.Title>
      <Card>
        <FilePicker
          key={`${category}?${search.toString()}`}
          mode="flat"
          url="/admin/data/file_manager"
          category={category}
          min={min}
          max={max}
          reverseSelectOrder={search.get('reverse') === '1'}
          permission={{
            upload: hasRule(rules, 'data/file_manager/upload'),
            addEdit: hasRule(rules, 'data/file_manager/edit'),
            delete: hasRule(rules, 'data/file_manager/delete'),
          }}
          onConfirm={send}
        />
      </Card>
    </Flex>
  );
}
