import type { Migration } from 'kysely';
import * as foundation from './2026_11_21_0001_foundation';
import * as files from './2026_11_21_1000_files';

/**
 * Every migration, imported statically so the esbuild bundle carries them (no file scanning).
 * Names sort in the order they run; add new ones below with a later timestamp.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_1000_files': files,
};
