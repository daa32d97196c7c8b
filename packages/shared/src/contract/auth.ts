import { z } from 'zod';
import { adminAppConfigResponse, appConfigResponse, loginResponse } from './accounts.answers';
import { defineCalls } from './call';
import { recordIdOrZero, textField } from './fields';

export const loginRequest = z.strictObject({
  username: textField().trim().min(1).max(100),
  password: textField().min(1).max(200),
  /** The image captcha answer; required only when the server says so (DESIGN 7). */
  captcha: textField().max(20).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const emptyRequest = z.strictObject({});

/** The signed-in person as the client sees them; `id: 0` means anonymous (SPEC 3.10). */
export const publicUser = z.object({
  id: recordIdOrZero,
  username: textField().optional(),
  nickname: textField().optional(),
  avatar: textField().optional(),
});
export type PublicUser = z.infer<typeof publicUser>;

export type LoginResponse = z.infer<typeof loginResponse>;

/** Sign-in and sign-out of each area, and `app/config` (DESIGN 5). */
export const authCalls = {
  admin: defineCalls('admin', {
    'auth/login': { public: true, request: loginRequest, answer: loginResponse },
    'auth/logout': { rule: null, request: emptyRequest, answer: z.null() },
    'app/config': { public: true, request: emptyRequest, answer: adminAppConfigResponse },
  }),
  member: defineCalls('member', {
    'auth/login': { public: true, request: loginRequest, answer: loginResponse },
    'auth/logout': { request: emptyRequest, answer: z.null() },
    'app/config': { public: true, request: emptyRequest, answer: appConfigResponse },
  }),
};
