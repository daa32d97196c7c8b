import { z } from 'zod';

/**
 * Building blocks of every request schema (DESIGN 9). SQLite takes any text and any 64-bit
 * number, PostgreSQL does not: it refuses U+0000 in `text` and anything outside −2^31..2^31−1 in
 * `integer` (every id is a `serial`), and answers an error instead of a row. So a value either
 * fits the column it may reach on both databases, or the schema refuses it and the answer names
 * the field. Contract modules build their fields from these (lint refuses a bare `z.string()` or
 * `z.number()` there).
 */

/** Bounds of a PostgreSQL `integer` (and `serial`) column. */
export const int32Max = 2_147_483_647;
export const int32Min = -2_147_483_648;

export const nulMessage = 'must not contain NUL characters';
export const surrogateMessage = 'must not contain unpaired surrogates (invalid Unicode)';

/** U+0000 anywhere: PostgreSQL text cannot hold it. */
const nul = /\0/;
/**
 * A UTF-16 surrogate not part of a pair. JSON can carry one (`"\ud800"`) but UTF-8 cannot: the
 * database driver would silently store U+FFFD instead of what was sent.
 */
const loneSurrogate = /\p{Cs}/u;

/** Why `value` cannot be stored as sent, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  if (nul.test(value)) return nulMessage;
  if (loneSurrogate.test(value)) return surrogateMessage;
  return undefined;
}

/** Any text field: refuses NUL and unpaired surrogates; chain `.trim()`, `.max()` etc. as usual. */
export function textField() {
  return z
    .string()
    .refine((value) => !nul.test(value), nulMessage)
    .refine((value) => !loneSurrogate.test(value), surrogateMessage);
}

function assertRange(min: number, max: number, low: number, high: number): void {
  if (!(min <= max && min >= low && max <= high)) {
    throw new RangeError(`bounds ${min}..${max} do not fit ${low}..${high}`);
  }
}

/** Messages replacing the usual ones of a number field. */
export interface NumberMessages {
  int?: string;
  min?: string;
  max?: string;
}

function wholeNumber(min: number, max: number, messages: NumberMessages) {
  return z
    .number()
    .int(messages.int ?? 'expected a whole number')
    .min(min, messages.min ?? `expected ${min} or more`)
    .max(max, messages.max ?? `expected at most ${max}`);
}

/** A whole number in `min..max`, which must fit a PostgreSQL `integer` column. */
export function intField(min: number, max: number, messages: NumberMessages = {}) {
  assertRange(min, max, int32Min, int32Max);
  return wholeNumber(min, max, messages);
}

/**
 * A whole number in `min..max` for a `bigint` column (byte sizes, epoch milliseconds): bounded
 * by the integers JavaScript holds exactly, so what is stored is what was sent.
 */
export function bigIntField(
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
  messages: NumberMessages = {},
) {
  assertRange(min, max, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return wholeNumber(min, max, messages);
}

/** A number with a fraction allowed (temperatures, penalties): finite and inside `min..max`. */
export function decimalField(min: number, max: number) {
  assertRange(min, max, -Number.MAX_VALUE, Number.MAX_VALUE);
  return z.number().min(min, `expected ${min} or more`).max(max, `expected at most ${max}`);
}

const idTooLarge = `expected an id of at most ${int32Max}`;

/** A record id: a `serial`, so 1 to 2^31−1. */
export const recordId = intField(1, int32Max, { min: 'expected an id', max: idTooLarge });

/** A record id, or 0 for "none" (no model, the root category, a new record). */
export const recordIdOrZero = intField(0, int32Max, {
  min: 'expected 0 or an id',
  max: idTooLarge,
});

const digits = textField().regex(/^\d{1,16}$/, 'expected a whole number');

/**
 * A whole number in `min..max` (inside `integer`'s range) sent as a JSON number or as a string of
 * digits, as the file manager's form-style calls do (SPEC 7.3).
 */
export function intOrDigitsField(min: number, max: number, messages: NumberMessages = {}) {
  return z.union([z.number(), digits.transform(Number)]).pipe(intField(min, max, messages));
}
