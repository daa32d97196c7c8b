export const accountKeys = {
  profile: ['account', 'profile'] as const,
  outbox: (page: number, pageSize: number) => ['account', 'outbox', page, pageSize] as const,
  messaging: ['account', 'messaging'] as const,
  loginCaptcha: ['account', 'login-captcha'] as const,
};
