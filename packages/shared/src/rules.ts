/**
 * The one permission matcher (SPEC 6, DESIGN 7): a rule matches a name when it matches the
 * whole name; `*` matches any run of characters, including none; every other character is literal.
 */

const cache = new Map<string, RegExp>();

function compile(rule: string): RegExp {
  let re = cache.get(rule);
  if (!re) {
    const body = rule
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&'))
      .join('[\\s\\S]*');
    re = new RegExp(`^${body}$`);
    if (cache.size > 5000) cache.clear();
    cache.set(rule, re);
  }
  return re;
}

/** True when `rule` matches the whole of `name`. */
export function ruleMatches(rule: string, name: string): boolean {
  return compile(rule).test(name);
}

/** True when any of `rules` matches any of `names` (SPEC 6: a list of names passes if any matches). */
export function hasRule(rules: readonly string[], names: string | readonly string[]): boolean {
  const list = typeof names === 'string' ? [names] : names;
  return list.some((name) => rules.some((rule) => ruleMatches(rule, name)));
}

export interface MenuItem {
  title: string;
  url: string;
  /** Defaults to `url` (SPEC 3.10). */
  rule?: string | string[];
  icon?: string;
  children?: MenuItem[];
}

export interface ShownMenuItem extends Omit<MenuItem, 'children'> {
  children: ShownMenuItem[];
  show: boolean;
}

/**
 * Marks each menu item shown when its rule (defaulting to its url) is allowed, or when any child
 * is shown (SPEC 6). Hidden branches are kept with `show: false` so callers can still draw trees.
 */
export function markMenu(items: readonly MenuItem[], rules: readonly string[]): ShownMenuItem[] {
  return items.map((item) => {
    const children = markMenu(item.children ?? [], rules);
    const own = hasRule(rules, item.rule ?? item.url);
    return { ...item, children, show: own || children.some((c) => c.show) };
  });
}

/** The shown items only, recursively. */
export function filterMenu(items: readonly MenuItem[], rules: readonly string[]): ShownMenuItem[] {
  const prune = (list: ShownMenuItem[]): ShownMenuItem[] =>
    list.filter((i) => i.show).map((i) => ({ ...i, children: prune(i.children) }));
  return prune(markMenu(items, rules));
}
