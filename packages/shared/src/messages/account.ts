import type { Texts } from './render';

/**
 * Messages of the account area (issue 27): sign-in, the image captcha, verification codes,
 * registration, password reset and change, the profile, the message transports, and the e-mail
 * and SMS texts, which are rendered in the member's language (`members.lang`).
 *
 * The password rule's numbers are AccountLimits.passwordMinLength and passwordMaxLength (a test
 * keeps them in step).
 */
export const account = {
  /* ---- Sign-in and captcha ---- */
  'account.wrongLogin': { 'zh-CN': '用户名或密码错误', en: 'Wrong username or password' },
  'account.captchaRequired': { 'zh-CN': '请输入图形验证码', en: 'Please enter the captcha' },
  'account.captchaWrong': { 'zh-CN': '图形验证码错误', en: 'Wrong captcha' },

  /* ---- Registration, password reset, profile, password change ---- */
  'account.usernameTaken': {
    'zh-CN': '{field}“{username}”已被占用',
    en: '{field} {username} is taken',
  },
  'account.emailRegistered': {
    'zh-CN': '该邮箱地址已被注册',
    en: 'This e-mail address is already registered',
  },
  'account.phoneRegistered': {
    'zh-CN': '该手机号已被注册',
    en: 'This phone number is already registered',
  },
  'account.noAccount': {
    'zh-CN': '没有账号使用该邮箱地址或手机号',
    en: 'No account uses this e-mail address or phone number',
  },
  'account.notFound': { 'zh-CN': '账号不存在', en: 'Account not found' },
  'account.passwordReset': {
    'zh-CN': '密码已修改，请重新登录',
    en: 'Password changed, please sign in again',
  },
  'account.passwordChanged': {
    'zh-CN': '密码已修改，其他设备已退出登录',
    en: 'Password changed; other devices have been signed out',
  },
  'account.wrongOldPassword': { 'zh-CN': '{field}错误', en: '{field} is wrong' },
  'account.samePassword': {
    'zh-CN': '新密码不能与当前密码相同',
    en: 'Choose a password different from the current one',
  },
  'account.profileSaved': { 'zh-CN': '资料已保存', en: 'Profile saved' },
  'account.notOwnAvatar': {
    'zh-CN': '{field}：请从自己的图片库中选择图片',
    en: '{field}: choose an image from your own library',
  },

  /* ---- Validation rules of the account forms (zod messages; params {field}) ---- */
  'account.usernameRule': {
    'zh-CN': '{field}须为 3-32 个字母、数字或下划线，并以字母开头',
    en: '{field}: 3-32 letters, digits or _, starting with a letter',
  },
  'account.passwordTooShort': {
    'zh-CN': '{field}至少需要 8 个字符',
    en: '{field} needs at least 8 characters',
  },
  'account.passwordTooLong': {
    'zh-CN': '{field}最多 200 个字符',
    en: '{field} takes at most 200 characters',
  },
  'account.passwordLettersDigits': {
    'zh-CN': '{field}须同时包含字母和数字',
    en: '{field} must contain both letters and digits',
  },
  'account.targetInvalid': {
    'zh-CN': '请输入有效的邮箱地址或手机号',
    en: 'Enter a valid e-mail address or phone number',
  },
  'account.codeFormat': { 'zh-CN': '{field}应为 6 位数字', en: '{field} must be 6 digits' },
  'account.avatarNotImage': {
    'zh-CN': '{field}：请从图片库中选择图片',
    en: '{field}: choose an image from the library',
  },
  'account.hostInvalid': {
    'zh-CN': '{field}应为主机名或 IP 地址',
    en: '{field}: enter a host name or address',
  },
  /** `{code}` is left as it is (no such parameter): the template's own placeholder. */
  'account.templateNeedsCode': {
    'zh-CN': '{field}必须包含 {code}',
    en: '{field} must contain {code}',
  },

  /* ---- Verification codes ---- */
  'account.codeSent': { 'zh-CN': '验证码已发送', en: 'Verification code sent' },
  'account.codeNotSent': {
    'zh-CN': '验证码发送失败，请稍后重试',
    en: 'Could not send the verification code, please try again later',
  },
  'account.codeExpired': {
    'zh-CN': '{field}错误或已过期，请重新获取',
    en: '{field} is wrong or expired, request a new code',
  },
  'account.codeTooManyTries': {
    'zh-CN': '{field}错误次数过多，请重新获取',
    en: '{field}: too many wrong tries, request a new code',
  },
  'account.codeWrong': {
    'zh-CN': '{field}错误，还可尝试 {left} 次',
    en: '{field} is wrong, {left} tries left',
  },
  'account.codeWrongLastTry': {
    'zh-CN': '{field}错误，还可尝试 1 次',
    en: '{field} is wrong, 1 try left',
  },

  /* ---- Message transports (admin) ---- */
  'account.smtpPasswordAgain': {
    'zh-CN': '主机、端口、加密方式或用户名已更改，请重新输入 SMTP 密码',
    en: 'SMTP password: enter the password again for the new host, port, encryption or user',
  },
  'account.smsSecretAgain': {
    'zh-CN': 'Webhook 地址已更改，请重新输入短信密钥，或将其删除',
    en: 'SMS secret: enter the secret again for the new webhook URL, or remove it',
  },
  'account.testSent': { 'zh-CN': '测试消息已发送', en: 'Test message sent' },
  'account.sendFailed': { 'zh-CN': '发送失败：{reason}', en: 'Sending failed: {reason}' },
  'account.smtpHostMissing': { 'zh-CN': '未配置 SMTP 主机', en: 'SMTP host is not configured' },
  'account.webhookUrlMissing': {
    'zh-CN': '未配置短信 Webhook 地址',
    en: 'SMS webhook URL is not configured',
  },
  'account.webhookStatus': {
    'zh-CN': '短信 Webhook 返回了 HTTP {status}',
    en: 'SMS webhook answered HTTP {status}',
  },
  /** A transport's own error (the mail server's or the network's words), as it came. */
  'account.deliveryError': { 'zh-CN': '投递出错：{reason}', en: 'Delivery error: {reason}' },

  /* ---- E-mail and SMS texts (the member's language) ---- */
  'account.codeMailSubject': { 'zh-CN': '{site}验证码', en: '{site} verification code' },
  'account.codeMailBody': {
    'zh-CN': '您的{site}验证码是 {code}，10 分钟内有效。\n\n如果这不是您本人的操作，请忽略本邮件。',
    en: 'Your {site} verification code is {code}. It expires in 10 minutes.\n\nIf you did not ask for it, ignore this message.',
  },
  'account.codeSms': {
    'zh-CN': '您的验证码是 {code}，10 分钟内有效。',
    en: 'Your verification code is {code}. It expires in 10 minutes.',
  },
  'account.testMailSubject': { 'zh-CN': '{site}测试消息', en: '{site} test message' },
  'account.testMessageBody': {
    'zh-CN': '这是一条来自{site}的测试消息：{channel}通道工作正常。',
    en: 'This is a test message from {site}: the {channel} transport works.',
  },
  'account.channelEmail': { 'zh-CN': '邮件', en: 'e-mail' },
  'account.channelSms': { 'zh-CN': '短信', en: 'SMS' },

  /* ---- Field names (validation messages name the field in words) ---- */
  'field.target': { 'zh-CN': '邮箱或手机号', en: 'E-mail or phone number' },
  'field.nickname': { 'zh-CN': '昵称', en: 'Nickname' },
  'field.avatar': { 'zh-CN': '头像', en: 'Avatar' },
  'field.oldPassword': { 'zh-CN': '当前密码', en: 'Current password' },
  'field.email': { 'zh-CN': '邮箱地址', en: 'E-mail address' },
  'field.phone': { 'zh-CN': '手机号', en: 'Phone number' },
  'field.emailTransport': { 'zh-CN': '邮件发送方式', en: 'E-mail transport' },
  'field.smsTransport': { 'zh-CN': '短信发送方式', en: 'SMS transport' },
  'field.host': { 'zh-CN': 'SMTP 主机', en: 'SMTP host' },
  'field.port': { 'zh-CN': '端口', en: 'Port' },
  'field.security': { 'zh-CN': '加密方式', en: 'Encryption' },
  'field.user': { 'zh-CN': 'SMTP 用户名', en: 'SMTP user' },
  'field.template': { 'zh-CN': '短信模板', en: 'SMS template' },
  'field.secret': { 'zh-CN': 'Webhook 密钥', en: 'Webhook secret' },
  'field.mode': { 'zh-CN': '登录验证码', en: 'Login captcha' },
} as const satisfies Record<string, Texts>;
