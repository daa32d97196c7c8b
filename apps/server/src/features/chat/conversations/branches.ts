/** A message as the branch walk sees it. */
export interface BranchNode {
  id: number;
  parentId: number | null;
  role: 'user' | 'assistant';
}

/**
 * The shown branch, oldest first: from the conversation's first message to `leafId`, or to its
 * newest message when there is no leaf or it is gone. A child is always newer than its parent, so
 * the newest message of a subtree is one of its leaves.
 */
export function branchPath(nodes: readonly BranchNode[], leafId: number | null): number[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let at = (leafId !== null && byId.get(leafId)) || nodes.at(-1);
  const path: number[] = [];
  while (at) {
    path.push(at.id);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return path.reverse();
}

/** The newest message at or under `id`: the leaf a switch to that branch shows. */
export function newestLeafUnder(nodes: readonly BranchNode[], id: number): number {
  const under = new Set([id]);
  let newest = id;
  // Sorted by id, parents come before their children: one pass finds the whole subtree.
  for (const node of nodes) {
    if (node.parentId !== null && under.has(node.parentId)) {
      under.add(node.id);
      newest = Math.max(newest, node.id);
    }
  }
  return newest;
}

/**
 * The messages that are versions of each other, oldest first, when there is more than one: the
 * questions asked again in other words (edit and branch) and the answers written again
 * (regenerate), each a child of the same parent with the same role.
 */
export function versionsOf(nodes: readonly BranchNode[], node: BranchNode): number[] | undefined {
  const versions = nodes
    .filter((n) => n.role === node.role && n.parentId === node.parentId)
    .map((n) => n.id);
  return versions.length > 1 ? versions : undefined;
}

/**
 * The versions of every message that has more than one, gathered in one pass: asking
 * `versionsOf` for each message of a path would read the whole conversation once for each.
 */
export function versionsByMessage(nodes: readonly BranchNode[]): Map<number, number[]> {
  const siblings = new Map<string, number[]>();
  for (const n of nodes) {
    const key = `${n.role}:${n.parentId ?? ''}`;
    const list = siblings.get(key) ?? [];
    list.push(n.id);
    siblings.set(key, list);
  }
  const byId = new Map<number, number[]>();
  for (const list of siblings.values()) {
    if (list.length < 2) continue;
    for (const id of list) byId.set(id, list);
  }
  return byId;
}
