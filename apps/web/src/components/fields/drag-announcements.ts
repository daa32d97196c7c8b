import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import type { MessageVars } from '@/lib/i18n';
import { fileNameOf } from './paths';
import type { FieldsKey } from './locales/zh-cn';
import type { Keyed } from './stable-keys';

type Translate = (key: FieldsKey, vars?: MessageVars) => string;

/**
 * What a screen reader hears while a sortable list of paths is reordered (dnd-kit reads these in
 * its live region): the file's name and its place, in the page's language, instead of dnd-kit's
 * English sentences about an item's internal key.
 */
export function dragAnnouncements(
  items: readonly Keyed[],
  t: Translate,
): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const total = items.length;
  const indexOf = (id: string | number) => items.findIndex((item) => item.key === id);
  const nameOf = (id: string | number) => {
    const item = items[indexOf(id)];
    return item ? fileNameOf(item.path) : String(id);
  };
  const position = (id: string | number) => indexOf(id) + 1;
  return {
    screenReaderInstructions: { draggable: t('fields.drag.instructions') },
    announcements: {
      onDragStart: ({ active }) =>
        t('fields.drag.start', { name: nameOf(active.id), position: position(active.id), total }),
      onDragOver: ({ active, over }) =>
        over
          ? t('fields.drag.over', { name: nameOf(active.id), position: position(over.id) })
          : t('fields.drag.outside', { name: nameOf(active.id) }),
      onDragEnd: ({ active, over }) =>
        t('fields.drag.end', {
          name: nameOf(active.id),
          position: position((over ?? active).id),
          total,
        }),
      onDragCancel: ({ active }) =>
        t('fields.drag.cancel', { name: nameOf(active.id), position: position(active.id) }),
    },
  };
}
