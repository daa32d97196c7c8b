import type { RuleFlag } from './role-rules';
import type { MenuItem } from './rules';

/**
 * The admin menu tree. Each item's `url` is both its hash route ("#/" + url) and, unless `rule`
 * says otherwise, the permission rule it needs (SPEC 3.10, 6). Roles grant these rules.
 */
export const adminMenu: MenuItem[] = [
  { title: 'menu.dashboard', url: 'dashboard', icon: 'dashboard' },
  {
    title: 'menu.aigc',
    url: 'aigc',
    icon: 'robot',
    children: [
      { title: 'menu.chatRooms', url: 'aigc/chat_room' },
      { title: 'menu.aiModels', url: 'aigc/model' },
      { title: 'menu.usage', url: 'aigc/usage' },
    ],
  },
  {
    title: 'menu.library',
    url: 'data',
    icon: 'folder',
    children: [{ title: 'menu.files', url: 'data/file_manager', rule: 'data/file_manager/view' }],
  },
  {
    title: 'menu.system',
    url: 'system',
    icon: 'setting',
    children: [
      { title: 'menu.admins', url: 'system/admin' },
      { title: 'menu.roles', url: 'system/role' },
      { title: 'menu.members', url: 'member' },
      { title: 'menu.settings', url: 'system/setting' },
      { title: 'menu.uploadSettings', url: 'system/upload' },
      { title: 'menu.audit', url: 'system/audit' },
      { title: 'menu.outbox', url: 'system/outbox' },
      { title: 'menu.messaging', url: 'system/message' },
    ],
  },
];

/**
 * Permissions within a page that a role may hold one by one (SPEC 2.4, 6): the file library's
 * View, Upload, Add/Edit and Delete. Keyed by the page's url; the role editor shows them as the
 * page's children. (The rules are `fileManagerRule(...)`, written out: no zod in this module.)
 */
export const adminMenuFlags: Record<string, RuleFlag[]> = {
  'data/file_manager': [
    { title: 'menu.filesView', rule: 'data/file_manager/view' },
    { title: 'menu.filesUpload', rule: 'data/file_manager/upload' },
    { title: 'menu.filesEdit', rule: 'data/file_manager/edit' },
    { title: 'menu.filesDelete', rule: 'data/file_manager/delete' },
  ],
};
