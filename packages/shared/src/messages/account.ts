import type { Texts } from './render';

/** Messages of the account area (issue 27). */
export const account = {} as const satisfies Record<string, Texts>;
