/** Unsaved edits, Simplified Chinese. */
export const unsavedZhCN = {
  'unsaved.close': '修改尚未保存，确定关闭吗？关闭后所做的修改将会丢失。',
  'unsaved.leave': '本页有尚未保存的修改，确定离开吗？离开后所做的修改将会丢失。',
  'unsaved.discard': '放弃修改',
  'unsaved.keepEditing': '继续编辑',
} as const;

export type UnsavedKey = keyof typeof unsavedZhCN;
