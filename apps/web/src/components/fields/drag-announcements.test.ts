import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { dragAnnouncements } from './drag-announcements';
import { tFields } from './i18n';

const items = [
  { key: 'k1', path: '/data/files/a.png' },
  { key: 'k2', path: '/data/files/%E6%B5%B7%E6%8A%A5.png' },
  { key: 'k3', path: '/data/files/c.png' },
];
const active = (id: string) => ({ id }) as never;

describe('dragAnnouncements', () => {
  it('names the file and its place in Chinese, not dnd-kit’s English about an internal key', async () => {
    await i18n.changeLanguage('zh-CN');
    const { announcements, screenReaderInstructions } = dragAnnouncements(items, tFields);
    expect(screenReaderInstructions.draggable).toBe(
      '按空格键拿起此项，用方向键移动，再按空格键放下；按 Esc 取消。',
    );
    expect(announcements.onDragStart({ active: active('k2') })).toBe(
      '已拿起“海报.png”，第 2 项，共 3 项。',
    );
    expect(announcements.onDragOver({ active: active('k2'), over: active('k3') })).toBe(
      '“海报.png”移到第 3 项。',
    );
    expect(announcements.onDragOver({ active: active('k2'), over: null })).toBe(
      '“海报.png”不在可放下的位置。',
    );
    expect(announcements.onDragEnd({ active: active('k2'), over: active('k1') })).toBe(
      '已放下“海报.png”，现在是第 1 项，共 3 项。',
    );
    expect(announcements.onDragCancel({ active: active('k1'), over: null })).toBe(
      '已取消拖动，“a.png”回到第 1 项。',
    );
  });

  it('speaks English on an English page; a drop outside keeps the item where it was', async () => {
    await i18n.changeLanguage('en');
    const { announcements } = dragAnnouncements(items, tFields);
    expect(announcements.onDragStart({ active: active('k3') })).toBe(
      'Picked up c.png, item 3 of 3.',
    );
    expect(announcements.onDragEnd({ active: active('k3'), over: null })).toBe(
      'Dropped c.png, now item 3 of 3.',
    );
    await i18n.changeLanguage('zh-CN');
  });
});
