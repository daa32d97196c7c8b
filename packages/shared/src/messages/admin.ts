import type { Texts } from './render';

/** Messages of the admin area (issue 27). */
export const admin = {} as const satisfies Record<string, Texts>;
