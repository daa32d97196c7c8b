/** Business constants of SPEC 9 shared by server and web. */
export const Limits = {
  apiTimeoutMs: 60_000,
  tokenCookieLifetimeMs: 3_600_000,
  sessionIdleMs: 3_600_000,
  sessionMaxAgeMs: 30 * 24 * 3_600_000,
  appRefreshMs: 30_000,
  permissionPollMs: 100,
  relativeTimeRefreshMs: 60_000,
  resultToastMs: 5_000,
  toastDefaultMs: 2_000,
  randomIdLength: 10,
  randomStringLength: 32,
  uploadChunkSize: 5 * 1024 * 1024,
  uploadChunkRetries: 5,
  /** Chunks our upload button sends at once unless the upload setting says otherwise. */
  uploadParallelChunks: 3,
  /** Days a deleted library file stays in the trash (issue 17; the upload settings' trashDays). */
  trashDays: 30,
  uploadConfigPollMs: 100,
  uploaderDefaultMaxSize: 2 * 1024 * 1024,
  uploaderDefaultExtensions: ['gif', 'jpg', 'png', 'jpeg'],
  imageExtensions: ['jpg', 'png', 'gif', 'jpeg', 'webp'],
  pickerPageSize: 10,
  smallWindowPx: 600,
  verifyCountdownSeconds: 60,
  jsonBodyLimitBytes: 1024 * 1024,
  loginFailuresBeforeCaptcha: 3,
} as const;

export const TokenKey = { member: 'api-token', admin: 'admin-api-token' } as const;
export const XsrfCookie = 'XSRF-TOKEN';
export const XsrfHeader = 'x-xsrf-token';

/** Marker in an upload refusal telling the uploader to restart the file from scratch (SPEC 4.5). */
export const shouldRetryUpload = 'ShouldRetryUpload';
