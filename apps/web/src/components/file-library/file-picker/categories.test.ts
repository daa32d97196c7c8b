import { describe, expect, it } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { categoryName, categoryOptions, findCategory, subtreeIds, toTreeItems } from './categories';

const tree = [
  {
    id: 0,
    // The server names the root in the language the call named (here zh-CN).
    name: '图片库',
    _child: [
      {
        id: 1,
        pid: 0,
        name: 'Holidays',
        _child: [{ id: 3, pid: 1, name: 'Beach 2024', _child: [] }],
      },
      { id: 2, pid: 0, name: 'Work', _child: [] },
    ],
  },
];

describe('category trees', () => {
  it('keeps the categories whose name contains the filter, with the branches leading to them', () => {
    const items = toTreeItems(tree, '_child', 'beach');
    expect(items).toEqual([
      {
        key: 0,
        title: '图片库',
        children: [
          { key: 1, title: 'Holidays', children: [{ key: 3, title: 'Beach 2024', children: [] }] },
        ],
      },
    ]);
  });

  it('keeps the root when nothing matches so everything stays reachable', () => {
    expect(toTreeItems(tree, '_child', 'zzz')).toEqual([{ key: 0, title: '图片库', children: [] }]);
  });

  it('reads children under a configured child key', () => {
    const custom = [{ id: 0, name: 'Root', kids: [{ id: 4, name: 'Kid' }] }];
    expect(
      toTreeItems(custom, 'kids')
        .at(0)
        ?.children.map((c) => c.title),
    ).toEqual(['Kid']);
    expect(toTreeItems(custom, '_child').at(0)?.children).toEqual([]);
  });

  it('finds nodes and their subtrees', () => {
    expect(findCategory(tree, 3, '_child')?.name).toBe('Beach 2024');
    expect([...subtreeIds(tree, 1, '_child')].sort()).toEqual([1, 3]);
  });

  it('indents select options by depth', () => {
    expect(
      categoryOptions([
        { id: 0, name: 'Root', depth: 0 },
        { id: 1, name: 'A', depth: 1 },
      ]),
    ).toEqual([
      { value: 0, label: 'Root', depth: 0 },
      { value: 1, label: 'A', depth: 1 },
    ]);
  });
});

describe('categoryName', () => {
  it("shows the root's name from its key in the page's language, else as the server wrote it", () => {
    setLanguage('zh-CN');
    expect(categoryName({ id: 0, name: 'Image Gallery', nameKey: 'files.libraryImage' })).toBe(
      '图片库',
    );
    expect(categoryName({ id: 0, name: 'files.libraryImage' })).toBe('图片库');
    expect(categoryName({ id: 0, name: '图片库' })).toBe('图片库');
    setLanguage('en');
    expect(categoryName({ id: 0, name: '图片库', nameKey: 'files.libraryImage' })).toBe(
      'Image Gallery',
    );
    expect(categoryName({ id: 0, name: 'Image Gallery' })).toBe('Image Gallery');
    setLanguage('zh-CN');
  });

  it('never reads a name a person typed as a key', () => {
    setLanguage('en');
    expect(categoryName({ id: 5, name: 'files.libraryImage' })).toBe('files.libraryImage');
    expect(categoryName({ id: 5, name: 'Image Gallery' })).toBe('Image Gallery');
    setLanguage('zh-CN');
  });
});
