import { describe, expect, it } from 'vitest';
import { adminMenu } from './menu';
import {
  checkedFromRules,
  coversRules,
  leafUrls,
  rulesFromChecked,
  splitRules,
} from './role-rules';
import { filterMenu, hasRule, type MenuItem } from './rules';

const menu: MenuItem[] = [
  { title: 'Dashboard', url: 'dashboard' },
  {
    title: 'Library',
    url: 'data',
    children: [{ title: 'Files', url: 'data/file_manager', rule: 'data/file_manager/view' }],
  },
  {
    title: 'System',
    url: 'system',
    children: [
      { title: 'Admins', url: 'system/admin' },
      { title: 'Members', url: 'member' },
      { title: 'Settings', url: 'system/setting' },
      { title: 'Upload', url: 'system/upload', rule: 'system/setting' },
    ],
  },
];

const shown = (rules: string[]) => {
  const urls: string[] = [];
  const walk = (items: ReturnType<typeof filterMenu>) =>
    items.forEach((i) => {
      urls.push(i.url);
      walk(i.children);
    });
  walk(filterMenu(menu, rules));
  return urls;
};

describe('rulesFromChecked', () => {
  it('stores a checked leaf as its address with a wildcard', () => {
    expect(rulesFromChecked(menu, ['system/admin'])).toEqual(['system/admin*']);
  });

  it('stores a fully checked branch as the parent pattern plus children outside its address', () => {
    const rules = rulesFromChecked(menu, [
      'system/admin',
      'member',
      'system/setting',
      'system/upload',
    ]);
    expect(rules).toEqual(['system*', 'member*']);
    expect(shown(rules)).toEqual([
      'system',
      'system/admin',
      'member',
      'system/setting',
      'system/upload',
    ]);
  });

  it('a checked parent grants the rights behind its pages, e.g. every file-manager right', () => {
    const rules = rulesFromChecked(menu, ['data/file_manager']);
    expect(rules).toEqual(['data*']);
    for (const right of ['view', 'upload', 'edit', 'delete']) {
      expect(hasRule(rules, `data/file_manager/${right}`)).toBe(true);
    }
  });

  it('keeps a page guarded by a rule outside its address as that rule', () => {
    expect(rulesFromChecked(menu, ['system/upload'])).toEqual(['system/setting']);
    expect(rulesFromChecked(menu, ['system/upload', 'system/setting'])).toEqual([
      'system/setting*',
    ]);
  });

  it('grants nothing when nothing is checked', () => {
    expect(rulesFromChecked(menu, [])).toEqual([]);
    expect(shown([])).toEqual([]);
  });
});

describe('checkedFromRules and splitRules', () => {
  it('round-trips every subset of the real admin menu', () => {
    const all = leafUrls(adminMenu);
    const same = (a: readonly string[], b: readonly string[]) => a.join('\n') === b.join('\n');
    // Thousands of subsets: compared plainly and reported together (an expect each is slow).
    const broken: string[][] = [];
    for (let mask = 0; mask < 2 ** all.length; mask += 1) {
      const checked = all.filter((_, i) => (mask >> i) & 1);
      const rules = rulesFromChecked(adminMenu, checked);
      const split = splitRules(adminMenu, rules);
      // Pages sharing one rule come and go together; after that, saving again changes nothing.
      const again = rulesFromChecked(adminMenu, split.checked);
      const stable =
        split.custom.length === 0 &&
        same(checkedFromRules(adminMenu, again), checkedFromRules(adminMenu, rules)) &&
        same(rulesFromChecked(adminMenu, splitRules(adminMenu, again).checked), again);
      if (!stable) broken.push(checked);
    }
    expect(broken).toEqual([]);
    // Under a loaded machine's full suite this can take several seconds.
  }, 30_000);

  it('keeps free-form rules out of the tree and never drops one', () => {
    const split = splitRules(menu, ['aigc/chat_room*', 'system/admin*', 'system']);
    expect(split.checked).toEqual(['system/admin']);
    expect(split.custom).toEqual(['aigc/chat_room*', 'system']);
  });

  it('shows pages granted by a wildcard rule as checked', () => {
    expect(checkedFromRules(menu, ['*'])).toEqual(leafUrls(menu));
    expect(checkedFromRules(menu, ['data/*'])).toEqual(['data/file_manager']);
  });
});

describe('coversRules', () => {
  it('lets a holder hand out only what their own rules reach', () => {
    expect(coversRules(['*'], ['system/admin', 'aigc/*'])).toBe(true);
    expect(coversRules(['aigc/*'], ['aigc/chat_room*', 'aigc/model'])).toBe(true);
    expect(coversRules(['aigc/chat_room*'], ['aigc/*'])).toBe(false);
    expect(coversRules(['system/admin'], ['system/admin*'])).toBe(false);
    expect(coversRules(['system/admin'], ['*'])).toBe(false);
    expect(coversRules([], [])).toBe(true);
  });
});
