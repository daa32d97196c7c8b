import { memo, useMemo } from 'react';
import { Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import { impliedKeys, type RuleNode } from '@atrium/shared/role-rules';
import { tText, useT } from '@/lib/i18n';
import { useTreeMotion } from '@/lib/use-media-query';

export interface MenuRulesTreeProps {
  tree: readonly RuleNode[];
  /** Keys of the ticked boxes: each stores its own rule. */
  ticked: readonly string[];
  /** Everything the role holds (ticked and free-form): what it grants shows checked and locked. */
  rules: readonly string[];
  onChange: (ticked: string[]) => void;
}

/**
 * The admin menu and its permissions with a box each (SPEC 6). Boxes are independent: a ticked
 * branch stores `<url>*` and shows everything below it as granted (checked, locked), and ticking
 * every child never ticks the branch, so a role holds exactly what was ticked.
 */
export const MenuRulesTree = memo(function MenuRulesTree({
  tree,
  ticked,
  rules,
  onChange,
}: MenuRulesTreeProps) {
  const { language } = useT();
  const implied = useMemo(() => new Set(impliedKeys(tree, ticked, rules)), [tree, ticked, rules]);
  const treeData = useMemo(() => toNodes(tree, implied, language), [tree, implied, language]);
  const motion = useTreeMotion();

  return (
    <Tree
      checkable
      checkStrictly
      selectable={false}
      defaultExpandAll
      blockNode
      motion={motion}
      treeData={treeData}
      checkedKeys={{ checked: [...ticked, ...implied], halfChecked: [] }}
      onCheck={(keys) => {
        const list = Array.isArray(keys) ? keys : keys.checked;
        onChange(list.map(String).filter((key) => !implied.has(key)));
      }}
    />
  );
});

/** `language` only keys the memo: tText reads the current language itself. */
function toNodes(
  nodes: readonly RuleNode[],
  implied: Set<string>,
  language: string,
): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.key,
    disableCheckbox: implied.has(node.key),
    title: (
      <span>
        {tText(node.title)}{' '}
        <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: 'monospace' }}>
          {node.rule}
        </Typography.Text>
      </span>
    ),
    children: toNodes(node.children, implied, language),
  }));
}
