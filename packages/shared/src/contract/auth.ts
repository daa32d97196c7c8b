import { z } from 'zod';
import { recordIdOrZero, textField } from './fields';

export const loginRequest = z.strictObject({
  username: textField().trim().min(1, 'username is required').max(100),
  password: textField().min(1, 'password is required').max(200),
  /** The image captcha answer; required only when the server says so (issue: accounts). */
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

export interface LoginResponse {
  user: PublicUser;
  /** Same value as the token response header, for clients that cannot read headers. */
  token: string;
}
