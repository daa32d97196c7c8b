import { hasRule, type MenuItem } from './rules';

/**
 * The role editor's bridge between the admin menu tree (checkboxes) and rule lists (SPEC 6).
 * A checked item stores `<url>*`, which the matcher reads as "this item and everything under its
 * address", so a checked parent covers its children, also ones added later. Children whose
 * address lies elsewhere (e.g. `member` under `system`) get their own rule.
 */

/** The rule names an item needs: its `rule` (one or a list), defaulting to its url. */
export function ruleNamesOf(item: MenuItem): string[] {
  if (item.rule === undefined) return [item.url];
  return typeof item.rule === 'string' ? [item.rule] : [...item.rule];
}

function leaves(item: MenuItem): MenuItem[] {
  const children = item.children ?? [];
  return children.length === 0 ? [item] : children.flatMap(leaves);
}

function namesBelow(item: MenuItem): string[] {
  return [...ruleNamesOf(item), ...(item.children ?? []).flatMap(namesBelow)];
}

/** Urls of the leaf items (the checkable pages) in menu order. */
export function leafUrls(menu: readonly MenuItem[]): string[] {
  return menu.flatMap(leaves).map((item) => item.url);
}

function coveredBy(rules: readonly string[], names: readonly string[]): boolean {
  return names.every((name) => hasRule(rules, name));
}

function emit(item: MenuItem, checked: ReadonlySet<string>, out: string[]): void {
  const itemLeaves = leaves(item);
  const full = itemLeaves.every((leaf) => checked.has(leaf.url));
  const children = item.children ?? [];
  if (!full) {
    for (const child of children) emit(child, checked, out);
    return;
  }
  const pattern = `${item.url}*`;
  if (coveredBy([pattern], ruleNamesOf(item))) {
    out.push(pattern);
    for (const child of children) {
      if (!coveredBy([pattern], namesBelow(child))) emit(child, checked, out);
    }
    return;
  }
  // The item's rule lives elsewhere (e.g. a page guarded by another page's rule): store it as is.
  if (children.length === 0) out.push(...ruleNamesOf(item));
  for (const child of children) emit(child, checked, out);
}

/** The rules that grant exactly the checked leaves (and whole branches where all are checked). */
export function rulesFromChecked(
  menu: readonly MenuItem[],
  checkedLeaves: Iterable<string>,
): string[] {
  const checked = new Set(checkedLeaves);
  const out: string[] = [];
  for (const item of menu) emit(item, checked, out);
  // Pages sharing a rule can emit it twice, once inside a pattern: keep the wider one.
  const unique = [...new Set(out)];
  return unique.filter((rule) => !unique.some((other) => other !== rule && hasRule([other], rule)));
}

/** Leaf urls the rules grant. */
export function checkedFromRules(menu: readonly MenuItem[], rules: readonly string[]): string[] {
  return menu
    .flatMap(leaves)
    .filter((leaf) => hasRule(rules, ruleNamesOf(leaf)))
    .map((leaf) => leaf.url);
}

function treeShaped(menu: readonly MenuItem[]): Set<string> {
  const shapes = new Set<string>();
  const walk = (item: MenuItem) => {
    shapes.add(`${item.url}*`);
    if ((item.children ?? []).length === 0) for (const name of ruleNamesOf(item)) shapes.add(name);
    for (const child of item.children ?? []) walk(child);
  };
  menu.forEach(walk);
  return shapes;
}

/**
 * Splits a stored rule list for the editor: the tree part (as checked leaves) and the free-form
 * rest. Saving `rulesFromChecked(checked) + custom` never loses a stored rule: whatever the tree
 * does not regenerate (or cover with a wider pattern) stays in `custom`.
 */
export function splitRules(
  menu: readonly MenuItem[],
  rules: readonly string[],
): { checked: string[]; custom: string[] } {
  const shapes = treeShaped(menu);
  const checked = checkedFromRules(
    menu,
    rules.filter((rule) => shapes.has(rule)),
  );
  const regenerated = rulesFromChecked(menu, checked);
  return {
    checked,
    custom: rules.filter((rule) => !(shapes.has(rule) && hasRule(regenerated, rule))),
  };
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
