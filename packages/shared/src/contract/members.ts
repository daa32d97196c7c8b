import { z } from 'zod';
import { textField } from './fields';
import { parseTarget, passwordProblem, usernamePattern } from './accounts';
import { nicknameField } from './admins';
import { defineCalls } from './call';
import { memberDetail, memberView, type storageUse } from './members.answers';
import { idField, idRequest, keywordField, pageFields } from './paging';
import { pagedAnswer } from './paging.answers';

/**
 * The admin side of member accounts (DESIGN 7): the calls under `/admin/api/members/...`. Accounts
 * made here follow the rules of self-registration, so they sign in the same way.
 */

/** A member password: the registration policy. */
export const memberPassword = textField().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const memberListRequest = z.strictObject({ ...pageFields, keyword: keywordField });
export type MemberListRequest = z.input<typeof memberListRequest>;

/** Empty means none, so a form can always send the field; otherwise normalised like at sign-up. */
const contactField = (
  kind: 'email' | 'phone',
  message: 'validation.email' | 'admin.phoneInvalid',
) =>
  textField()
    .trim()
    .max(254)
    .default('')
    .transform((value, ctx) => {
      if (value === '') return '';
      const target = parseTarget(value);
      if (target?.kind !== kind) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return target.value;
    });

export const memberCreateRequest = z.strictObject({
  username: textField().trim().regex(usernamePattern, 'account.usernameRule'),
  password: memberPassword,
  email: contactField('email', 'validation.email'),
  phone: contactField('phone', 'admin.phoneInvalid'),
  nickname: nicknameField.default(''),
});
export type MemberCreateRequest = z.input<typeof memberCreateRequest>;

export const memberPasswordRequest = z.strictObject({ id: idField, password: memberPassword });
export type MemberPasswordRequest = z.input<typeof memberPasswordRequest>;

export type MemberView = z.infer<typeof memberView>;
export type StorageUse = z.infer<typeof storageUse>;
export type MemberDetail = z.infer<typeof memberDetail>;

export const membersRule = 'member';

export const membersAdminCalls = defineCalls('admin', {
  'members/list': {
    rule: membersRule,
    request: memberListRequest,
    answer: pagedAnswer(memberView),
  },
  'members/get': { rule: membersRule, request: idRequest, answer: memberDetail },
  'members/create': { rule: membersRule, request: memberCreateRequest, answer: memberView },
  'members/disable': { rule: membersRule, request: idRequest, answer: memberView },
  'members/enable': { rule: membersRule, request: idRequest, answer: memberView },
  'members/reset_password': { rule: membersRule, request: memberPasswordRequest, answer: z.null() },
});
