import type { Texts } from './render';

/** Messages of the files area (issue 27). */
export const files = {} as const satisfies Record<string, Texts>;
