import type { z, ZodType } from 'zod';
import type { AreaName } from '../areas';

/**
 * How every product call is declared once (DESIGN 3, 5): its area, its path under the area's API
 * root, who may call it, and the zod schemas of its request body and of the `data` of a success.
 *
 * The server registers routes from these declarations and type-checks each handler's answer;
 * tests parse every success against the answer schema; the web names a call by its table key
 * (`'roles/list'` in the admin table) and gets both types from the declaration. This module holds
 * no zod at run time, so the browser takes the types without the schemas (DESIGN 10 first load).
 */

/** Who may call an admin call: `rule` (SPEC 6 matcher), `rule: null` (signed in), or anyone. */
export type AdminAccess =
  { rule: string | null; public?: false } | { public: true; rule?: undefined };

/** Member calls need a signed-in member unless `public`. */
export type MemberAccess = { public?: boolean; rule?: undefined };

export type AccessOf<A extends AreaName> = A extends 'admin' ? AdminAccess : MemberAccess;

export interface Schemas<Req extends ZodType = ZodType, Ans extends ZodType = ZodType> {
  /** The JSON body; a strict object, so unknown fields are refused. */
  request: Req;
  /** The `data` of a successful answer. Checked in tests, never parsed in production. */
  answer: Ans;
  /**
   * A call answered with a Server-Sent Events stream (a refusal still answers the envelope): the
   * schema of each event's `data`, by event name. The server's writes are checked against them
   * in tests; the web's reader validates every event it reads.
   */
  events?: Record<string, ZodType>;
}

export type CallSpec<A extends AreaName> = Schemas & AccessOf<A>;

/** A declaration with its table key: `path` is relative to the area's API root. */
export type Call<A extends AreaName = AreaName, S extends CallSpec<A> = CallSpec<A>> = S & {
  area: A;
  path: string;
};

/** Declares a group of one area's calls, keyed by path (`'roles/list'`). */
export function defineCalls<A extends AreaName, const T extends Record<string, CallSpec<A>>>(
  area: A,
  calls: T,
): { [P in keyof T & string]: T[P] & { area: A; path: P } } {
  const declared: Record<string, Call<A>> = {};
  for (const [path, spec] of Object.entries(calls)) declared[path] = { ...spec, area, path };
  return declared as { [P in keyof T & string]: T[P] & { area: A; path: P } };
}

/** The request body a caller sends (before defaults apply). */
export type RequestOf<C> = C extends { request: infer R extends ZodType } ? z.input<R> : never;
/** The request body a handler receives (after parsing). */
export type ParsedRequestOf<C> = C extends { request: infer R extends ZodType }
  ? z.output<R>
  : never;
/** The `data` of a successful answer. */
export type AnswerOf<C> = C extends { answer: infer A extends ZodType } ? z.output<A> : never;

/** One event of a call's stream: its name and its `data`, as declared in `events`. */
export type EventOf<C> = C extends { events: infer E extends Record<string, ZodType> }
  ? { [K in keyof E & string]: { event: K; data: z.output<E[K]> } }[keyof E & string]
  : never;

/** The URL a call is served at: `/admin/api/<path>` or `/api/<path>` (DESIGN 5). */
export function callUrl(call: { area: AreaName; path: string }): string {
  return call.area === 'admin' ? `/admin/api/${call.path}` : `/api/${call.path}`;
}
