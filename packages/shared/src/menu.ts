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
      { title: 'menu.uploadSettings', url: 'system/upload', rule: 'system/setting' },
      { title: 'menu.audit', url: 'system/audit' },
      { title: 'menu.outbox', url: 'system/outbox' },
      { title: 'menu.messaging', url: 'system/message' },
    ],
  },
];
