import { AccountLimits, passwordProblem } from '@atrium/shared/contract/accounts-rules';

/**
 * The password rules of the server (packages/shared/src/contract), as form rules, so a form
 * refuses exactly what the server would: members' passwords need letters and digits too.
 */
export function memberPasswordRule(message: string) {
  return {
    validator: (_rule: unknown, value: unknown) =>
      !value || (typeof value === 'string' && passwordProblem(value) === undefined)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

/** Admins' passwords: a length range only (DESIGN 7). */
export function adminPasswordRule(message: string) {
  return {
    min: AccountLimits.passwordMinLength,
    max: AccountLimits.passwordMaxLength,
    message,
  };
}
