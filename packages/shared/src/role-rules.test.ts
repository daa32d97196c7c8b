import { describe, expect, it } from 'vitest';
import { fileManagerRule } from './contract/files';
import { adminMenu, adminMenuFlags } from './menu';
import {
  coversRules,
  impliedKeys,
  ruleKeys,
  ruleTree,
  rulesFromTicked,
  splitRules,
} from './role-rules';
import { hasRule, type MenuItem } from './rules';

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
      { title: 'Guarded elsewhere', url: 'system/other', rule: 'system/setting' },
    ],
  },
];
const flags = {
  'data/file_manager': (['view', 'upload', 'edit', 'delete'] as const).map((f) => ({
    title: f,
    rule: `data/file_manager/${f}`,
  })),
};
const tree = ruleTree(menu, flags);

describe('ruleTree', () => {
  it('gives a branch and a page with permissions `<url>*`, a permission its rule', () => {
    const [, library, system] = tree;
    expect(library?.rule).toBe('data*');
    expect(library?.children[0]?.rule).toBe('data/file_manager*');
    expect(library?.children[0]?.children.map((n) => n.rule)).toEqual([
      'data/file_manager/view',
      'data/file_manager/upload',
      'data/file_manager/edit',
      'data/file_manager/delete',
    ]);
    expect(system?.children.map((n) => n.rule)).toEqual([
      'system/admin*',
      'member*',
      'system/setting*',
      // A page guarded by a rule outside its address stores that rule.
      'system/setting',
    ]);
  });

  it("holds the real menu's file permissions as the contract names them", () => {
    expect(adminMenuFlags['data/file_manager']?.map((f) => f.rule)).toEqual(
      (['view', 'upload', 'edit', 'delete'] as const).map(fileManagerRule),
    );
    // Upload settings has a rule of its own (it shared system/setting before).
    const keys = ruleKeys(ruleTree(adminMenu, adminMenuFlags));
    expect(keys).toContain('system/upload');
    expect(keys).toContain('data/file_manager/delete');
  });
});

describe('rulesFromTicked', () => {
  it('stores exactly what was ticked: one file permission stays one permission', () => {
    const rules = rulesFromTicked(tree, ['data/file_manager/view']);
    expect(rules).toEqual(['data/file_manager/view']);
    expect(hasRule(rules, 'data/file_manager/upload')).toBe(false);
    expect(hasRule(rules, 'data/file_manager/delete')).toBe(false);
  });

  it('ticking every child of a branch does not tick the branch', () => {
    expect(
      rulesFromTicked(tree, ['system/admin', 'member', 'system/setting', 'system/other']),
    ).toEqual(['system/admin*', 'member*', 'system/setting*', 'system/setting']);
  });

  it('a ticked branch also grants the children whose address lies elsewhere', () => {
    expect(rulesFromTicked(tree, ['system'])).toEqual(['system*', 'member*']);
    expect(impliedKeys(tree, ['system'], rulesFromTicked(tree, ['system']))).toEqual([
      'system/admin',
      'member',
      'system/setting',
      'system/other',
    ]);
  });

  it('a ticked branch stores its pattern and nothing under it again', () => {
    expect(rulesFromTicked(tree, ['data', 'data/file_manager', 'data/file_manager/view'])).toEqual([
      'data*',
    ]);
    for (const right of ['view', 'upload', 'edit', 'delete']) {
      expect(hasRule(['data*'], `data/file_manager/${right}`)).toBe(true);
    }
  });

  it('grants nothing when nothing is ticked', () => {
    expect(rulesFromTicked(tree, [])).toEqual([]);
  });
});

describe('splitRules', () => {
  it('keeps a single file permission a single permission through a save', () => {
    const split = splitRules(tree, ['data/file_manager/view']);
    expect(split).toEqual({ ticked: ['data/file_manager/view'], custom: [] });
    expect(rulesFromTicked(tree, split.ticked)).toEqual(['data/file_manager/view']);
  });

  it('keeps a branch pattern stored without its outside children as a free-form rule', () => {
    expect(splitRules(tree, ['system*'])).toEqual({ ticked: [], custom: ['system*'] });
    expect(splitRules(tree, ['system*', 'member*']).custom).toEqual([]);
  });

  it('keeps free-form rules out of the tree and never drops one', () => {
    const split = splitRules(tree, ['aigc/chat_room*', 'system/admin*', 'system']);
    expect(split.ticked).toEqual(['system/admin']);
    expect(split.custom).toEqual(['aigc/chat_room*', 'system']);
  });

  it('saves every stored list back to the same powers, neither wider nor narrower', () => {
    const nodeRules = [...new Set(ruleKeys(tree).map((key) => findRule(key)))];
    const probes = [
      ...nodeRules,
      'data/file_manager/view',
      'system/admin/save',
      'member/list',
      'system/setting',
      'dashboard',
      'aigc/chat_room',
    ];
    const extras = ['*', 'data/*', 'aigc/chat_room*', 'system'];
    const pool = [...nodeRules, ...extras];
    const broken: string[][] = [];
    // Every subset of up to three rules from the pool.
    for (let a = 0; a < pool.length; a += 1)
      for (let b = a; b < pool.length; b += 1)
        for (let c = b; c < pool.length; c += 1) {
          const rules = [...new Set([pool[a], pool[b], pool[c]].filter((r) => r !== undefined))];
          const split = splitRules(tree, rules);
          const saved = [...rulesFromTicked(tree, split.ticked), ...split.custom];
          const same = probes.every((probe) => hasRule(saved, probe) === hasRule(rules, probe));
          if (!same) broken.push(rules);
        }
    expect(broken).toEqual([]);
  });
});

function findRule(key: string): string {
  const stack = [...tree];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.key === key) return node.rule;
    stack.push(...node.children);
  }
  throw new Error(key);
}

describe('impliedKeys', () => {
  it('shows what a ticked branch or a free-form wildcard grants, without ticking it', () => {
    expect(impliedKeys(tree, ['data'], ['data*'])).toEqual([
      'data/file_manager',
      'data/file_manager/view',
      'data/file_manager/upload',
      'data/file_manager/edit',
      'data/file_manager/delete',
    ]);
    expect(impliedKeys(tree, [], ['data/file_manager/*'])).toEqual([
      'data/file_manager/view',
      'data/file_manager/upload',
      'data/file_manager/edit',
      'data/file_manager/delete',
    ]);
    expect(impliedKeys(tree, ['data/file_manager/view'], ['data/file_manager/view'])).toEqual([]);
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
