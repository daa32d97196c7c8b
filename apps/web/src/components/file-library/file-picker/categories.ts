import { storedText } from '@/lib/messages';

/** Category trees as the server nests them under `childKey` (SPEC 3.3), and what the picker does with them. */

export interface CategoryNode {
  id: number;
  pid?: number;
  name: string;
  /** The root's name as a catalogue key, when the server names it so. */
  nameKey?: string;
  title?: string;
  depth?: number;
}

export interface CategoryTreeItem {
  key: number;
  title: string;
  children: CategoryTreeItem[];
}

/**
 * A category's name as shown: the root's (图片库 / Image Gallery, named by the server) from its
 * catalogue key in the page's language when the server sends one (`nameKey`, or the key as the
 * name), else as the server wrote it in the language the call named; the others as their owners
 * typed them. A language switch fetches the tree again (preferences-store).
 */
export function categoryName(node: Pick<CategoryNode, 'id' | 'name' | 'nameKey'>): string {
  return node.id === 0 ? storedText(node.name, node.nameKey) : node.name;
}

function isNode(value: unknown): value is CategoryNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'number'
  );
}

function childrenOf(node: CategoryNode, childKey: string): CategoryNode[] {
  // The child list sits under the key the picker was told (SPEC 3.3), not a fixed field.
  const list: unknown = Reflect.get(node, childKey);
  return Array.isArray(list) ? list.filter(isNode) : [];
}

/** Antd Tree data; the root (id 0) is always kept so "everything" stays reachable. */
export function toTreeItems(
  nodes: readonly CategoryNode[],
  childKey: string,
  filter = '',
): CategoryTreeItem[] {
  const needle = filter.trim().toLowerCase();
  const walk = (list: readonly CategoryNode[]): CategoryTreeItem[] =>
    list.flatMap((node) => {
      const children = walk(childrenOf(node, childKey));
      const hit = !needle || node.id === 0 || node.name.toLowerCase().includes(needle);
      return hit || children.length > 0
        ? [{ key: node.id, title: categoryName(node), children }]
        : [];
    });
  return walk(nodes);
}

export function treeKeys(items: readonly CategoryTreeItem[]): number[] {
  return items.flatMap((item) => [item.key, ...treeKeys(item.children)]);
}

export function findCategory(
  nodes: readonly CategoryNode[],
  id: number,
  childKey: string,
): CategoryNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findCategory(childrenOf(node, childKey), id, childKey);
    if (found) return found;
  }
  return undefined;
}

export interface CategoryOption {
  value: number;
  label: string;
  depth: number;
}

/** Select options from a flattened list (each entry carries its depth), indented by depth. */
export function categoryOptions(list: readonly CategoryNode[]): CategoryOption[] {
  return list.map((node) => ({
    value: node.id,
    label: categoryName(node),
    depth: typeof node.depth === 'number' ? node.depth : 0,
  }));
}

/** Ids of a category and everything under it: none of them can become its parent. */
export function subtreeIds(
  nodes: readonly CategoryNode[],
  id: number,
  childKey: string,
): Set<number> {
  const out = new Set<number>();
  const walk = (node: CategoryNode) => {
    out.add(node.id);
    childrenOf(node, childKey).forEach(walk);
  };
  const start = findCategory(nodes, id, childKey);
  if (start) walk(start);
  return out;
}
