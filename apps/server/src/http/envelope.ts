import { Code, fail, type Envelope } from '@atrium/shared';

export { fail, type Envelope };

/**
 * A handled failure: services throw it, the error handler answers HTTP 200 with the envelope
 * `{code, msg, data}`. Anything else thrown is a crash (HTTP 500).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number = Code.Failure,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const Messages = {
  notLoggedIn: 'not logined',
  noPermission: 'No permission',
  invalidJson: 'Invalid JSON body',
  bodyTooLarge: 'Request body too large',
  unsupportedContentType: 'Unsupported content type: send application/json',
  xsrfMismatch: 'XSRF token mismatch: reload the page and try again',
  notFound: 'Not found',
  internal: 'Internal server error',
} as const;

export const notLoggedIn = (): Envelope => fail(Messages.notLoggedIn, Code.NotLoggedIn);
export const noPermission = (): Envelope => fail(Messages.noPermission, Code.NoPermission);
