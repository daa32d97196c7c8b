import type { Texts } from './render';

/**
 * The audit log's actions as a person reads them (issue 27): one phrase per audited admin route,
 * keyed `audit.<route path in camelCase>` (`aigc/chat_room/save` is `audit.aigcChatRoomSave`),
 * and one per write of the admin file library, `audit.library<Action>` with the library's name.
 * The log stores the route; the server renders its phrase when the log is read.
 */
export const adminAudit = {
  'audit.authLogin': { 'zh-CN': '登录', en: 'Sign in' },
  'audit.authLogout': { 'zh-CN': '退出登录', en: 'Sign out' },
  'audit.systemMessageSave': { 'zh-CN': '保存消息通道', en: 'Save message transports' },
  'audit.systemMessageTest': { 'zh-CN': '测试消息通道', en: 'Test a message transport' },
  'audit.systemLoginCaptchaSave': {
    'zh-CN': '保存登录验证码设置',
    en: 'Save login captcha settings',
  },
  'audit.adminsCreate': { 'zh-CN': '添加管理员', en: 'Add administrator' },
  'audit.adminsEdit': { 'zh-CN': '编辑管理员', en: 'Edit administrator' },
  'audit.adminsDisable': { 'zh-CN': '禁用管理员', en: 'Disable administrator' },
  'audit.adminsEnable': { 'zh-CN': '启用管理员', en: 'Enable administrator' },
  'audit.adminsResetPassword': { 'zh-CN': '重置管理员密码', en: 'Reset administrator password' },
  'audit.adminsDelete': { 'zh-CN': '删除管理员', en: 'Delete administrator' },
  'audit.rolesCreate': { 'zh-CN': '添加角色', en: 'Add role' },
  'audit.rolesEdit': { 'zh-CN': '编辑角色', en: 'Edit role' },
  'audit.rolesDelete': { 'zh-CN': '删除角色', en: 'Delete role' },
  'audit.membersCreate': { 'zh-CN': '添加会员', en: 'Add member' },
  'audit.membersDisable': { 'zh-CN': '禁用会员', en: 'Disable member' },
  'audit.membersEnable': { 'zh-CN': '启用会员', en: 'Enable member' },
  'audit.membersResetPassword': { 'zh-CN': '重置会员密码', en: 'Reset member password' },
  'audit.settingSave': { 'zh-CN': '保存站点设置', en: 'Save site settings' },
  'audit.settingsUploadSave': { 'zh-CN': '保存上传设置', en: 'Save upload settings' },
  'audit.aigcProviderSave': { 'zh-CN': '保存 AI 服务商', en: 'Save AI provider' },
  'audit.aigcProviderDelete': { 'zh-CN': '删除 AI 服务商', en: 'Delete AI provider' },
  'audit.aigcProviderTest': { 'zh-CN': '测试 AI 服务商', en: 'Test AI provider' },
  'audit.aigcModelSave': { 'zh-CN': '保存 AI 模型', en: 'Save AI model' },
  'audit.aigcModelDelete': { 'zh-CN': '删除 AI 模型', en: 'Delete AI model' },
  'audit.aigcChatRoomSave': { 'zh-CN': '保存聊天室', en: 'Save room' },
  'audit.aigcChatRoomEnable': { 'zh-CN': '启用或停用聊天室', en: 'Enable or disable room' },
  'audit.aigcChatRoomSort': { 'zh-CN': '调整聊天室顺序', en: 'Reorder rooms' },
  'audit.aigcChatRoomDelete': { 'zh-CN': '删除聊天室', en: 'Delete room' },
  'audit.aigcUsageQuotaSave': { 'zh-CN': '保存用量额度', en: 'Save usage quotas' },
  'audit.aigcShareSettingSave': { 'zh-CN': '保存分享设置', en: 'Save share settings' },

  // The admin file library: `{library}` is one of the library names below.
  'audit.librarySave': { 'zh-CN': '上传文件 · {library}', en: 'Upload file · {library}' },
  'audit.libraryFileEdit': { 'zh-CN': '移动文件 · {library}', en: 'Move files · {library}' },
  'audit.libraryFileDelete': { 'zh-CN': '删除文件 · {library}', en: 'Delete files · {library}' },
  'audit.libraryReplace': { 'zh-CN': '替换文件 · {library}', en: 'Replace file · {library}' },
  'audit.libraryRestore': {
    'zh-CN': '从回收站恢复文件 · {library}',
    en: 'Restore files from the trash · {library}',
  },
  'audit.libraryPurge': {
    'zh-CN': '彻底删除文件 · {library}',
    en: 'Delete files for good · {library}',
  },
  'audit.libraryCategoryEdit': {
    'zh-CN': '保存分类 · {library}',
    en: 'Save category · {library}',
  },
  'audit.libraryCategoryDelete': {
    'zh-CN': '删除分类 · {library}',
    en: 'Delete category · {library}',
  },
  'audit.libraryNameImage': { 'zh-CN': '图片库', en: 'Image Gallery' },
  'audit.libraryNameFile': { 'zh-CN': '文件库', en: 'File Gallery' },
  'audit.libraryNameVideo': { 'zh-CN': '视频库', en: 'Video Gallery' },
  'audit.libraryNameAudio': { 'zh-CN': '音频库', en: 'Audio Gallery' },
} as const satisfies Record<string, Texts>;
