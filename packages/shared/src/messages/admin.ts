import type { Texts } from './render';

/**
 * Messages of the admin area (issue 27): administrators, roles, member accounts as admins manage
 * them, the site settings and their fields. The audit log's phrases are in admin-audit.ts.
 */
export const admin = {
  'admin.passwordChanged': { 'zh-CN': '密码已修改', en: 'Password changed' },

  // Administrators.
  'admin.usernameRule': {
    'zh-CN': '{field}只能使用 1-64 位字母、数字或 _ . @ -',
    en: '{field}: use 1-64 letters, digits, _ . @ or -',
  },
  'admin.adminNotFound': { 'zh-CN': '管理员 {id} 不存在', en: 'Administrator {id} does not exist' },
  'admin.founderHoldsEveryRule': {
    'zh-CN': '创始人拥有全部权限，分配角色不会有任何改变',
    en: 'The founder holds every rule; roles would change nothing',
  },
  'admin.cannotDisableSelf': {
    'zh-CN': '不能禁用自己的账号',
    en: "You can't disable your own account",
  },
  'admin.cannotDeleteSelf': {
    'zh-CN': '不能删除自己的账号',
    en: "You can't delete your own account",
  },
  'admin.cannotDisableFounder': {
    'zh-CN': '创始人账号 {username} 不能被禁用',
    en: "The founder account {username} can't be disabled",
  },
  'admin.cannotDeleteFounder': {
    'zh-CN': '创始人账号 {username} 不能被删除',
    en: "The founder account {username} can't be deleted",
  },
  'admin.onlyFounderChangesFounder': {
    'zh-CN': '只有创始人可以修改创始人账号 {username}',
    en: 'Only the founder can change the founder account {username}',
  },
  'admin.adminHoldsMoreRules': {
    'zh-CN': '{username} 拥有你没有的权限，你不能管理该账号',
    en: "{username} holds rules you don't hold, so you can't manage them",
  },
  'admin.rolesNotFound': { 'zh-CN': '角色 {ids} 不存在', en: 'Role {ids} does not exist' },
  'admin.rolesBeyondRules': {
    'zh-CN': '角色 {names} 含有你自己没有的权限',
    en: "{names} holds rules you don't hold yourself",
  },

  // Roles.
  'admin.ruleRule': {
    'zh-CN': '{field}只能使用字母、数字、_ / . : - 和通配符 *',
    en: '{field}: use letters, digits, _ / . : - and the * wildcard',
  },
  'admin.roleNameTaken': {
    'zh-CN': '已存在名为 {name} 的角色',
    en: 'A role named {name} already exists',
  },
  'admin.roleNotFound': { 'zh-CN': '角色 {id} 不存在', en: 'Role {id} does not exist' },
  'admin.roleBeyondRules': {
    'zh-CN': '角色 {name} 含有你没有的权限，你不能修改它',
    en: "Role {name} holds rules you don't hold, so you can't change it",
  },
  'admin.ruleNotHeld': {
    'zh-CN': '你不能授予 {rules}：你自己没有该权限',
    en: "You can't grant {rules}: you don't hold it yourself",
  },
  'admin.roleInUse': {
    'zh-CN': '角色 {name} 正被 {count} 位管理员使用：请先从他们的账号中移除该角色，再删除',
    en: 'Role {name} is held by {count} admin(s): take it from them before deleting it',
  },

  // Member accounts.
  'admin.memberNotFound': { 'zh-CN': '会员 {id} 不存在', en: 'Member {id} does not exist' },
  'admin.phoneInvalid': {
    'zh-CN': '{field}不是有效的手机号码',
    en: '{field} is not a phone number',
  },

  // Site settings.
  'admin.siteAddress': {
    'zh-CN': '{field}必须是以“/”开头的路径或 http(s) 地址',
    en: '{field} must be a path starting with "/" or an http(s) address',
  },
  'admin.metaNameRule': {
    'zh-CN': '{field}只能包含字母、数字和 : . _ -，并以字母开头',
    en: '{field}: letters, digits and : . _ - starting with a letter',
  },
  'admin.selectorServerRequired': {
    'zh-CN': '使用外部选择器时必须填写{field}',
    en: '{field} is required for the external selector',
  },
  'admin.invalidJson': { 'zh-CN': '{field}不是有效的 JSON', en: '{field} is not valid JSON' },

  // Fields of these forms, as validation refusals name them.
  'field.roleIds': { 'zh-CN': '角色', en: 'Roles' },
  'field.rules': { 'zh-CN': '权限规则', en: 'Rules' },
  'field.settings': { 'zh-CN': '站点设置', en: 'Site settings' },
  'field.siteName': { 'zh-CN': '站点名称', en: 'Site name' },
  'field.siteLanguage': { 'zh-CN': '站点默认语言', en: 'Default language of the site' },
  'field.logo': { 'zh-CN': '标志', en: 'Logo' },
  'field.favicon': { 'zh-CN': '网站图标', en: 'Favicon' },
  'field.banners': { 'zh-CN': '首页横幅', en: 'Home banners' },
  'field.terms': { 'zh-CN': '服务条款文档', en: 'Terms document' },
  'field.about': { 'zh-CN': '关于本站', en: 'About the site' },
  'field.metaTags': { 'zh-CN': '额外的 meta 标签', en: 'Extra meta tags' },
  'field.selectorMode': { 'zh-CN': '文件选择方式', en: 'File selector' },
  'field.selectorServer': { 'zh-CN': '外部选择器地址', en: 'External selector address' },
  'field.advanced': { 'zh-CN': '高级配置（JSON）', en: 'Advanced settings (JSON)' },
  'field.adminId': { 'zh-CN': '管理员', en: 'Administrator' },
  'field.keyword': { 'zh-CN': '关键词', en: 'Keyword' },
  'field.days': { 'zh-CN': '统计天数', en: 'Days' },
  'field.utcOffsetMinutes': { 'zh-CN': '时区偏移（分钟）', en: 'Time zone offset (minutes)' },
} as const satisfies Record<string, Texts>;
