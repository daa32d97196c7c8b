import {
  isMessageKey,
  render,
  type Language,
  type MessageRef,
} from '@atrium/shared/messages/catalogue';

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `aigc/chat_room/save` → `aigcChatRoomSave`. */
function camelCase(path: string): string {
  const [first = '', ...rest] = path.split(/[/_:-]/).filter(Boolean);
  return first + rest.map(capitalised).join('');
}

const libraryAction = /^data\/file_manager\/(\w+):(\w+)$/;

/**
 * The phrase a person reads for an audited action (issue 27), or undefined when the catalogue has
 * none: `audit.<route in camelCase>`, and for the admin file library `audit.library<Action>`
 * naming the library (`data/file_manager/image:fileDelete` is "删除文件 · 图片库").
 */
export function auditPhrase(action: string): MessageRef | undefined {
  const library = libraryAction.exec(action);
  if (library) {
    const [, name = '', verb = ''] = library;
    const key = `audit.library${capitalised(verb)}`;
    const libraryKey = `audit.libraryName${capitalised(name)}`;
    if (!isMessageKey(key) || !isMessageKey(libraryKey)) return undefined;
    return { key, params: { library: { key: libraryKey } } };
  }
  const key = `audit.${camelCase(action)}`;
  return isMessageKey(key) ? { key } : undefined;
}

/** The action in `lang`; an action without a phrase (a route since removed) as it is stored. */
export function auditActionText(lang: Language, action: string): string {
  const phrase = auditPhrase(action);
  return phrase ? render(lang, phrase) : action;
}
