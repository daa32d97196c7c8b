import type { Texts } from './render';

/**
 * Validation refusals (issue 27, point 3): `{field}` is the field's name in words of the
 * request's language (a `field.*` message), never the body's own key.
 */
export const validation = {
  'validation.required': { 'zh-CN': '请填写{field}', en: '{field} is required' },
  'validation.invalid': { 'zh-CN': '{field}不正确', en: '{field} is not valid' },
  'validation.type': {
    'zh-CN': '{field}的类型不正确',
    en: '{field} has the wrong type',
  },
  'validation.unknownField': { 'zh-CN': '未知字段：{field}', en: 'Unknown field: {field}' },
  'validation.tooShort': {
    'zh-CN': '{field}至少需要 {min} 个字符',
    en: '{field} needs at least {min} characters',
  },
  'validation.tooLong': {
    'zh-CN': '{field}最多 {max} 个字符',
    en: '{field} takes at most {max} characters',
  },
  'validation.tooFew': {
    'zh-CN': '{field}至少需要 {min} 项',
    en: '{field} needs at least {min} items',
  },
  'validation.tooMany': {
    'zh-CN': '{field}最多 {max} 项',
    en: '{field} takes at most {max} items',
  },
  'validation.tooSmall': {
    'zh-CN': '{field}不能小于 {min}',
    en: '{field} must be at least {min}',
  },
  'validation.tooBig': { 'zh-CN': '{field}不能大于 {max}', en: '{field} must be at most {max}' },
  'validation.notInteger': { 'zh-CN': '{field}必须是整数', en: '{field} must be a whole number' },
  'validation.tooPrecise': {
    'zh-CN': '{field}最多保留 {max} 位小数',
    en: '{field} takes at most {max} decimals',
  },
  'validation.oneOf': {
    'zh-CN': '{field}只能是以下之一：{options}',
    en: '{field} must be one of: {options}',
  },
  'validation.format': { 'zh-CN': '{field}的格式不正确', en: '{field} is not in the right format' },
  'validation.email': {
    'zh-CN': '{field}不是有效的邮箱地址',
    en: '{field} is not a valid e-mail address',
  },
  'validation.url': { 'zh-CN': '{field}不是有效的网址', en: '{field} is not a valid address' },
  'validation.body': { 'zh-CN': '请求内容不正确', en: 'The request is not valid' },
} as const satisfies Record<string, Texts>;
