import type { Texts } from './render';

/**
 * Messages of every area: SPEC's success notices, the envelope's own refusals and the outages
 * (issue 26). SPEC's English notices ("Save Success", "not logined") are the en texts word for
 * word.
 */
export const common = {
  'common.saveSuccess': { 'zh-CN': '保存成功', en: 'Save Success' },
  'common.addSuccess': { 'zh-CN': '添加成功', en: 'Add Success' },
  'common.editSuccess': { 'zh-CN': '编辑成功', en: 'Edit Success' },
  'common.deleteSuccess': { 'zh-CN': '删除成功', en: 'Delete Success' },
  'common.saved': { 'zh-CN': '已保存', en: 'Saved' },
  'common.enabled': { 'zh-CN': '已启用', en: 'Enabled' },
  'common.disabled': { 'zh-CN': '已禁用', en: 'Disabled' },

  'http.notLoggedIn': { 'zh-CN': '请先登录', en: 'not logined' },
  'http.noPermission': { 'zh-CN': '没有权限', en: 'No permission' },
  'http.invalidJson': { 'zh-CN': '请求内容不是有效的 JSON', en: 'Invalid JSON body' },
  'http.bodyTooLarge': { 'zh-CN': '请求内容过大', en: 'Request body too large' },
  'http.unsupportedContentType': {
    'zh-CN': '不支持的内容类型：请以 application/json 发送',
    en: 'Unsupported content type: send application/json',
  },
  'http.contentLengthMismatch': {
    'zh-CN': '请求内容的大小与 Content-Length 不符',
    en: 'Request body size did not match Content-Length',
  },
  'http.badUrl': {
    'zh-CN': '无法读取请求地址（百分号编码有误，或某一段过长）',
    en: 'The address cannot be read (bad percent-encoding, or a part is too long)',
  },
  'http.xsrfMismatch': {
    'zh-CN': '页面已过期（XSRF 校验失败），请刷新页面后重试',
    en: 'XSRF token mismatch: reload the page and try again',
  },
  'http.notFound': { 'zh-CN': '未找到', en: 'Not found' },
  'http.internal': { 'zh-CN': '服务器内部错误', en: 'Internal server error' },
  'http.refused': { 'zh-CN': '请求被拒绝（{reason}）', en: 'The request was refused ({reason})' },
  'http.tooManyRequests': {
    'zh-CN': '操作过于频繁，请 {seconds} 秒后再试',
    en: 'Too many requests, try again in {seconds} s',
  },

  'http.shouldRetryUpload': {
    'zh-CN': '{reason} (ShouldRetryUpload)',
    en: '{reason} (ShouldRetryUpload)',
  },

  'unavailable.database': {
    'zh-CN': '数据库暂时不可用：没有任何改动，请几秒后重试',
    en: 'The database is temporarily unavailable: nothing was changed, try again in a few seconds',
  },
  'unavailable.redis': {
    'zh-CN': '共享服务（Redis）暂时不可用：没有任何改动，请几秒后重试',
    en: 'A shared service (Redis) is temporarily unavailable: nothing was changed, try again in a few seconds',
  },
  'unavailable.storage': {
    'zh-CN': '存储暂时不可用：没有丢失任何内容，请重试',
    en: 'Storage is temporarily unavailable: nothing was lost, try again',
  },
  'unavailable.diskFull': {
    'zh-CN': '磁盘已满：请告诉管理员，然后重试',
    en: 'The disk is full: tell the administrator, then try again',
  },

  'time.second': { 'zh-CN': '{n} 秒', en: '{n} second' },
  'time.seconds': { 'zh-CN': '{n} 秒', en: '{n} seconds' },
  'time.minute': { 'zh-CN': '{n} 分钟', en: '{n} minute' },
  'time.minutes': { 'zh-CN': '{n} 分钟', en: '{n} minutes' },
  'limits.signInPerAddress': {
    'zh-CN': '你的网络登录尝试过多，请 {wait}后再试',
    en: 'Too many sign-in attempts from your address, try again in {wait}',
  },
  'limits.attempts': {
    'zh-CN': '尝试次数过多，请 {wait}后再试',
    en: 'Too many attempts, try again in {wait}',
  },
  'limits.wrongPasswords': {
    'zh-CN': '密码错误次数过多，请 {wait}后再试',
    en: 'Too many wrong passwords, try again in {wait}',
  },
  'limits.captchaImages': {
    'zh-CN': '验证码请求过多，请 {wait}后再试',
    en: 'Too many captcha requests, try again in {wait}',
  },
  'limits.codeResend': {
    'zh-CN': '请等待 {seconds} 秒后再获取验证码',
    en: 'Please wait {seconds} s before requesting another code',
  },
  'limits.codesToTarget': {
    'zh-CN': '今天发往这个地址的验证码过多，请明天再试',
    en: 'Too many codes were sent to this address today, try again tomorrow',
  },
  'limits.codesFromNetwork': {
    'zh-CN': '今天从你的网络发送的验证码过多，请明天再试',
    en: 'Too many codes were sent from your network today, try again tomorrow',
  },
  'limits.codeTries': {
    'zh-CN': '验证码错误次数过多，请重新获取验证码',
    en: 'Too many wrong tries of this code, request a new code',
  },
  'limits.chatMessages': {
    'zh-CN': '发送过于频繁：每分钟最多 {limit} 条，请稍候再试。',
    en: 'Too many messages: at most {limit} a minute. Wait a moment and try again.',
  },
  'limits.serverBusy': {
    'zh-CN': '服务器繁忙，请稍后再试',
    en: 'The server is busy, try again in a moment',
  },
  'limits.tooManyInProgress': {
    'zh-CN': '进行中的请求过多，请稍后再试',
    en: 'Too many requests in progress, try again shortly',
  },
  'http.bodyStalled': {
    'zh-CN': '请求内容中断，没有继续传来',
    en: 'The request body stopped arriving',
  },
  'http.requestTimeout': {
    'zh-CN': '请求传送时间过长',
    en: 'The request took too long to arrive',
  },
  'http.headersTooLong': {
    'zh-CN': '请求行或请求头过长',
    en: 'The request line or headers are too long',
  },
  'http.malformed': { 'zh-CN': '无法解析的 HTTP 请求', en: 'Malformed HTTP request' },
} as const satisfies Record<string, Texts>;
