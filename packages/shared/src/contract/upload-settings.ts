import { z } from 'zod';
import { uploadConfigSchema, type UploadConfig } from './files';

/** The admin editor of the `upload` setting (issue 8): `/admin/api/settings/upload/...`. */

/**
 * Extensions a browser may run as a document or script. Refused for the image library, whose
 * files are shown inline.
 */
export const browserRunnableExtensions = [
  'html',
  'htm',
  'svg',
  'js',
  'mjs',
  'xml',
  'xhtml',
] as const;

export const uploadSettingsGetRequest = z.strictObject({});
export const uploadSettingsSaveRequest = z.strictObject({ config: uploadConfigSchema });
export type UploadSettingsSaveRequest = z.input<typeof uploadSettingsSaveRequest>;

export interface UploadSettingsView {
  config: UploadConfig;
  defaults: UploadConfig;
  /** Smallest chunk size the storage accepts (5 MiB on S3). */
  minChunkSize: number;
  storageDriver: 'local' | 's3';
}
