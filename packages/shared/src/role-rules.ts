import { hasRule, type MenuItem } from './rules';

/**
 * The role editor's bridge between a tree of checkboxes and rule lists (SPEC 6). A role stores
 * exactly what was ticked: a ticked branch stores `<url>*` (the branch and everything under its
 * address, also items added later, plus the rules of children living elsewhere), a ticked page or
 * permission its own rule. Ticking every child of a branch does not tick the branch: the role then
 * holds those children and nothing more.
 */

/** A permission within a page that a role may hold on its own (e.g. the file library's Upload). */
export interface RuleFlag {
  title: string;
  rule: string;
}

/** A checkbox of the role editor: ticking it stores `rule`. */
export interface RuleNode {
  /** Unique in the tree: the menu item's url, or a flag's rule. */
  key: string;
  title: string;
  rule: string;
  children: RuleNode[];
}

/** The rule names an item needs: its `rule` (one or a list), defaulting to its url. */
export function ruleNamesOf(item: MenuItem): string[] {
  if (item.rule === undefined) return [item.url];
  return typeof item.rule === 'string' ? [item.rule] : [...item.rule];
}

/**
 * The editor's tree: the admin menu, with the flags of a page (`flags`, keyed by its url) as its
 * children. A page's own rule is `<url>*` when that grants what the page needs, else its rule.
 */
export function ruleTree(
  menu: readonly MenuItem[],
  flags: Readonly<Record<string, readonly RuleFlag[]>> = {},
): RuleNode[] {
  return menu.map((item) => {
    const pageFlags = (flags[item.url] ?? []).map((flag) => ({
      key: flag.rule,
      title: flag.title,
      rule: flag.rule,
      children: [],
    }));
    const children = [...ruleTree(item.children ?? [], flags), ...pageFlags];
    const pattern = `${item.url}*`;
    const names = ruleNamesOf(item);
    const rule =
      children.length > 0 || hasRule([pattern], names) ? pattern : (names[0] ?? item.url);
    return { key: item.url, title: item.title, rule, children };
  });
}

function* walk(
  nodes: readonly RuleNode[],
  ancestors: readonly RuleNode[] = [],
): Generator<[RuleNode, readonly RuleNode[]]> {
  for (const node of nodes) {
    yield [node, ancestors];
    yield* walk(node.children, [...ancestors, node]);
  }
}

/** Every node's key, in tree order. */
export function ruleKeys(tree: readonly RuleNode[]): string[] {
  return [...walk(tree)].map(([node]) => node.key);
}

/** The rules a node stores when ticked: its own, and those of children living elsewhere. */
function rulesOfNode(node: RuleNode): string[] {
  const outside = [...walk(node.children)]
    .map(([child]) => child.rule)
    .filter((rule) => !hasRule([node.rule], rule));
  return [...new Set([node.rule, ...outside])];
}

/**
 * The rules of the ticked nodes, leaving out those a ticked ancestor's rule already grants. A
 * ticked branch grants everything under it: a child whose address lies elsewhere (e.g. `member`
 * under `system`) is stored with its own rule.
 */
export function rulesFromTicked(tree: readonly RuleNode[], ticked: Iterable<string>): string[] {
  const set = new Set(ticked);
  const rules: string[] = [];
  for (const [node, ancestors] of walk(tree)) {
    if (!set.has(node.key)) continue;
    if (ancestors.some((a) => set.has(a.key) && hasRule([a.rule], node.rule))) continue;
    for (const rule of rulesOfNode(node)) if (!rules.includes(rule)) rules.push(rule);
  }
  return rules;
}

/**
 * Splits a stored rule list for the editor: the nodes whose rule it holds (ticked) and the rest
 * (free-form rules). Saving `rulesFromTicked(ticked) + custom` stores the same powers: nothing is
 * widened, and only a rule a ticked ancestor already covers is dropped.
 */
export function splitRules(
  tree: readonly RuleNode[],
  rules: readonly string[],
): { ticked: string[]; custom: string[] } {
  // A node is ticked when the list holds everything it stores (a branch's pattern alone, without
  // its children living elsewhere, stays a free-form rule: ticking would widen it).
  const ticked = [...walk(tree)]
    .filter(([node]) => rulesOfNode(node).every((rule) => rules.includes(rule)))
    .map(([node]) => node.key);
  // A ticked node's own rule is covered even when a ticked ancestor left it out of the save.
  const covered = new Set(rulesFromTicked(tree, ticked));
  for (const [node] of walk(tree)) if (ticked.includes(node.key)) covered.add(node.rule);
  return { ticked, custom: rules.filter((rule) => !covered.has(rule)) };
}

/**
 * Nodes the rules grant without their own box being ticked (a ticked branch above them, or a
 * free-form wildcard): shown checked and locked.
 */
export function impliedKeys(
  tree: readonly RuleNode[],
  ticked: readonly string[],
  rules: readonly string[],
): string[] {
  return [...walk(tree)]
    .filter(([node]) => !ticked.includes(node.key) && hasRule(rules, node.rule))
    .map(([node]) => node.key);
}

/**
 * True when `holder` grants everything `rules` grant. A pattern is covered when a holder rule
 * matches its text: the holder's literal characters can't match the pattern's `*`, so each `*`
 * falls inside one of the holder's and whatever replaces it still matches. Used so an admin can
 * only hand out (or take over) powers they hold themselves.
 */
export function coversRules(holder: readonly string[], rules: readonly string[]): boolean {
  return rules.every((rule) => hasRule(holder, rule));
}
