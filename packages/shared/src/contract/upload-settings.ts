import { z } from 'zod';
import { defineCalls } from './call';
import { uploadConfigSchema } from './files';
import { uploadSettingsView } from './upload-settings.answers';

/** The admin editor of the `upload` setting: `/admin/api/settings/upload/...`. */

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

export type UploadSettingsView = z.infer<typeof uploadSettingsView>;

export const uploadSettingsRule = 'system/upload';

export const uploadSettingsCalls = defineCalls('admin', {
  'settings/upload/get': {
    rule: uploadSettingsRule,
    request: uploadSettingsGetRequest,
    answer: uploadSettingsView,
  },
  'settings/upload/save': {
    rule: uploadSettingsRule,
    request: uploadSettingsSaveRequest,
    answer: uploadSettingsView,
  },
});
