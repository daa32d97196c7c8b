import { useMemo, useState } from 'react';
import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Spin, Tooltip, Tree } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import { useTreeMotion } from '@/lib/use-media-query';
import { toTreeItems, treeKeys, type CategoryNode } from './categories';

export interface CategoryPanelProps {
  tree: readonly CategoryNode[];
  childKey: string;
  current: number;
  loading: boolean;
  canAddEdit: boolean;
  canDelete: boolean;
  onSelect: (id: number) => void;
  onAdd: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** The left column: "Filter", the category buttons and the tree (SPEC 2.4). */
export function CategoryPanel(props: CategoryPanelProps) {
  const t = useFilesT();
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const items = useMemo(
    () => toTreeItems(props.tree, props.childKey, filter),
    [props.tree, props.childKey, filter],
  );
  // Everything is open unless the user folded it; a filter opens every branch that matched.
  const expanded = useMemo(
    () => treeKeys(items).filter((key) => filter.trim() !== '' || !collapsed.has(key)),
    [items, collapsed, filter],
  );
  const existing = props.current > 0;
  const motion = useTreeMotion();

  return (
    <div className="atrium-fp-categories">
      <Input
        size="small"
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('files.filter')}
        aria-label={t('files.filter')}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      {props.canAddEdit || props.canDelete ? (
        <div className="atrium-fp-category-actions">
          {props.canAddEdit ? (
            <Tooltip title={t('files.addCategory')}>
              <Button
                size="small"
                icon={<PlusOutlined />}
                aria-label={t('files.addCategory')}
                onClick={props.onAdd}
              />
            </Tooltip>
          ) : null}
          {props.canAddEdit ? (
            <Tooltip title={t('files.editCategory')}>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('files.editCategory')}
                disabled={!existing}
                onClick={props.onEdit}
              />
            </Tooltip>
          ) : null}
          {props.canDelete ? (
            <Tooltip title={t('files.deleteCategory')}>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('files.deleteCategory')}
                disabled={!existing}
                onClick={props.onDelete}
              />
            </Tooltip>
          ) : null}
        </div>
      ) : null}
      <Spin spinning={props.loading}>
        <div className="atrium-fp-tree" aria-busy={props.loading}>
          <Tree<{ key: number; title: string }>
            blockNode
            motion={motion}
            treeData={items}
            selectedKeys={[props.current]}
            expandedKeys={expanded}
            onExpand={(_keys, info) => {
              const key = Number(info.node.key);
              setCollapsed((prev) => {
                const next = new Set(prev);
                if (info.expanded) next.delete(key);
                else next.add(key);
                return next;
              });
            }}
            onSelect={(_keys, info) => props.onSelect(Number(info.node.key))}
          />
        </div>
      </Spin>
    </div>
  );
}
