import type { Texts } from './render';

/**
 * Fields by name, as validation refusals name them (`field.<key in the body>`). A field a body
 * carries under a name not listed here is named by its key.
 */
export const fields = {
  'field.body': { 'zh-CN': '请求内容', en: 'The request' },
  'field.id': { 'zh-CN': 'ID', en: 'ID' },
  'field.ids': { 'zh-CN': 'ID 列表', en: 'IDs' },
  'field.username': { 'zh-CN': '用户名', en: 'Username' },
  'field.password': { 'zh-CN': '密码', en: 'Password' },
  'field.captcha': { 'zh-CN': '图形验证码', en: 'Captcha' },
  'field.code': { 'zh-CN': '验证码', en: 'Verification code' },
  'field.title': { 'zh-CN': '标题', en: 'Title' },
  'field.name': { 'zh-CN': '名称', en: 'Name' },
  'field.page': { 'zh-CN': '页码', en: 'Page' },
  'field.pageSize': { 'zh-CN': '每页条数', en: 'Page size' },
  'field.url': { 'zh-CN': '地址', en: 'Address' },
  'field.all': { 'zh-CN': '全部', en: 'All' },
  'field.type': { 'zh-CN': '类型', en: 'Type' },
  'field.unused': { 'zh-CN': '仅未使用', en: 'Unused only' },
  'field.withUsage': { 'zh-CN': '使用位置', en: 'Where used' },
  'field.image': { 'zh-CN': '图片库', en: 'Image Gallery' },
  'field.video': { 'zh-CN': '视频库', en: 'Video Gallery' },
  'field.audio': { 'zh-CN': '音频库', en: 'Audio Gallery' },
  'field.config': { 'zh-CN': '配置', en: 'Settings' },
  'field.lang': { 'zh-CN': '语言', en: 'Language' },
  'field.utcOffset': { 'zh-CN': '时区', en: 'Time zone' },
  'field.publicLinks': { 'zh-CN': '公开链接', en: 'Public links' },
  'field.sms': { 'zh-CN': '短信', en: 'SMS' },
  'field.smtp': { 'zh-CN': '邮件服务器（SMTP）', en: 'Mail server (SMTP)' },
  // A field named by its parent too where the same key means another thing elsewhere.
  'field.smtp.from': { 'zh-CN': '发件人', en: 'Sender' },
} as const satisfies Record<string, Texts>;
