import type { Texts } from './render';

/** Messages of the chat area (issue 27). */
export const chat = {} as const satisfies Record<string, Texts>;
