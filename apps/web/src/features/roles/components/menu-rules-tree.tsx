import { memo, useMemo } from 'react';
import { Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import type { MenuItem } from '@atrium/shared/rules';
import { leafUrls, ruleNamesOf } from '@atrium/shared/role-rules';
import { tText, useT } from '@/lib/i18n';

export interface MenuRulesTreeProps {
  menu: readonly MenuItem[];
  /** Checked leaf urls; parents show checked when all their pages are. */
  checked: readonly string[];
  onChange: (checked: string[]) => void;
}

/** The admin menu with a checkbox per item (SPEC 6); a checked parent covers its children. */
export const MenuRulesTree = memo(function MenuRulesTree({
  menu,
  checked,
  onChange,
}: MenuRulesTreeProps) {
  const { language } = useT();
  const leaves = useMemo(() => new Set(leafUrls(menu)), [menu]);
  // Built once per menu and language: the tree is the heaviest part of the editor to redraw.
  const treeData = useMemo(() => toNodes(menu, language), [menu, language]);

  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      blockNode
      treeData={treeData}
      checkedKeys={[...checked]}
      onCheck={(keys) => {
        const list = Array.isArray(keys) ? keys : keys.checked;
        onChange(list.map(String).filter((key) => leaves.has(key)));
      }}
    />
  );
});

/** `language` only keys the memo: tText reads the current language itself. */
function toNodes(items: readonly MenuItem[], language: string): TreeDataNode[] {
  return items.map((item) => ({
    key: item.url,
    title: (
      <span>
        {tText(item.title)}{' '}
        <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: 'monospace' }}>
          {ruleNamesOf(item).join(', ')}
        </Typography.Text>
      </span>
    ),
    children: toNodes(item.children ?? [], language),
  }));
}
