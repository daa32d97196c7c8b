/** Response codes carried in the `code` field of every API envelope (SPEC 3.1, DESIGN 4). */
export const Code = {
  Success: 0,
  Failure: -1,
  NotLoggedIn: 1000,
  CaptchaWrong: 1002,
  NoPermission: 1003,
  TooManyRequests: 1004,
  /**
   * Something the call needs is out of reach for now (the database, Redis, storage) or the disk
   * is full: nothing was changed, and the same call may succeed later. `data` is
   * `UnavailableData` (see outage.ts).
   */
  Unavailable: 1005,
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

/** The envelope every product call answers with (SPEC 3.1). */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export const ok = <T>(data: T, msg = ''): Envelope<T> => ({ code: Code.Success, msg, data });
export const fail = (msg: string, code: number = Code.Failure, data: unknown = null): Envelope => ({
  code,
  msg,
  data,
});
