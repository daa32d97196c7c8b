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
  // A field named by its parent too where the same key means another thing elsewhere.
  'field.smtp.from': { 'zh-CN': '发件人', en: 'Sender' },
} as const satisfies Record<string, Texts>;
