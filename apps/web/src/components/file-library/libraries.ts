import type { Library } from '@atrium/shared/contract/files';

/**
 * The libraries in the order pages show them. Kept here rather than imported from the contract
 * because the contract's module also builds zod schemas, which the browser does not need.
 */
export const libraryKeys: readonly Library[] = ['image', 'file', 'video', 'audio'];

export function isLibrary(value: string | null): value is Library {
  return libraryKeys.some((library) => library === value);
}
