import type { UnsavedKey } from './zh-cn';

/** Unsaved edits, English. */
export const unsavedEn: Record<UnsavedKey, string> = {
  'unsaved.close': 'Close without saving? The changes you made will be lost.',
  'unsaved.leave': 'This page has changes that are not saved. Leave it? The changes will be lost.',
  'unsaved.discard': 'Discard changes',
  'unsaved.keepEditing': 'Keep editing',
};
