import { describe, expect, it } from 'vitest';
import { filterMenu, hasRule, markMenu, ruleMatches } from './rules';

describe('ruleMatches', () => {
  it.each([
    // [rule, name, expected]
    ['*', 'anything/at/all', true],
    ['*', '', true],
    ['system/admin', 'system/admin', true],
    ['system/admin', 'system/admins', false],
    ['system/admin', 'x/system/admin', false],
    ['system/*', 'system/admin', true],
    ['system/*', 'system/', true],
    ['system/*', 'system', false],
    ['*/admin', 'system/admin', true],
    ['*/admin', 'system/admin/x', false],
    ['data/*/view', 'data/file_manager/view', true],
    ['data/*/view', 'data//view', true],
    ['data/*/view', 'data/file_manager/upload', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXcYYb', false],
    ['aigc/chat_room*', 'aigc/chat_room', true],
    ['aigc/chat_room*', 'aigc/chat_room/edit', true],
    // regex metacharacters are literal
    ['a.c', 'abc', false],
    ['a.c', 'a.c', true],
    ['a+', 'aa', false],
    ['a+', 'a+', true],
    ['(x|y)', 'x', false],
    ['(x|y)', '(x|y)', true],
    ['[ab]', 'a', false],
    ['$^\\', '$^\\', true],
    ['?', 'x', false],
    ['', '', true],
    ['', 'x', false],
  ])('%j matches %j: %s', (rule, name, expected) => {
    expect(ruleMatches(rule, name)).toBe(expected);
  });
});

describe('hasRule', () => {
  it('passes when any rule matches', () => {
    expect(hasRule(['member', 'system/*'], 'system/role')).toBe(true);
    expect(hasRule(['member', 'system/*'], 'aigc/model')).toBe(false);
  });
  it('passes for a list of names when any of them matches', () => {
    expect(hasRule(['aigc/model'], ['system/admin', 'aigc/model'])).toBe(true);
    expect(hasRule(['aigc/model'], ['system/admin', 'member'])).toBe(false);
  });
  it('refuses with no rules or no names', () => {
    expect(hasRule([], 'x')).toBe(false);
    expect(hasRule(['*'], [])).toBe(false);
  });
});

describe('menus', () => {
  const menu = [
    { title: 'Dashboard', url: 'dashboard' },
    {
      title: 'System',
      url: 'system',
      children: [
        { title: 'Admins', url: 'system/admin' },
        { title: 'Roles', url: 'system/role', rule: ['system/role', 'system/role/*'] },
      ],
    },
    { title: 'Rooms', url: 'aigc/chat_room' },
  ];

  it('shows a parent when only a child is allowed', () => {
    const shown = filterMenu(menu, ['system/role']);
    expect(shown.map((m) => m.url)).toEqual(['system']);
    expect(shown[0]?.children.map((m) => m.url)).toEqual(['system/role']);
  });

  it('hides a branch whose items are all refused', () => {
    const marked = markMenu(menu, ['aigc/*']);
    expect(marked.map((m) => [m.url, m.show])).toEqual([
      ['dashboard', false],
      ['system', false],
      ['aigc/chat_room', true],
    ]);
    expect(marked[1]?.children.every((c) => !c.show)).toBe(true);
  });

  it('gives items with no children an empty child list', () => {
    expect(filterMenu(menu, ['*'])[0]?.children).toEqual([]);
  });
});
