import type { UploadSettingsMessages } from './zh-cn';

/** Upload settings, English. */
export const uploadSettingsEn: UploadSettingsMessages = {
  'uploadSettings.title': 'Upload settings',
  'uploadSettings.subtitle':
    'Allowed extensions and size limits per library, and the chunk size. Open pages take up a save on their next configuration refresh (within 30 seconds), without a reload; uploads under way finish with the settings they started with.',
  'uploadSettings.chunk': 'Chunks',
  'uploadSettings.chunkSize': 'Chunk size',
  'uploadSettings.chunkHelp': 'Bytes carried by each upload request.',
  'uploadSettings.chunkS3':
    'S3 storage is on: chunks must be at least {{min}} (the smallest S3 part).',
  'uploadSettings.chunkMin': 'Chunks are at least {{min}}',
  'uploadSettings.trash': 'Trash',
  'uploadSettings.trashDays': 'Days in the trash',
  'uploadSettings.trashDaysHelp':
    'A deleted file can be restored from the library’s trash for this many days, then it goes for good.',
  'uploadSettings.days': 'days',
  'uploadSettings.parallel': 'Chunks sent at once',
  'uploadSettings.parallelHelp':
    "How many chunks this site's upload button sends at the same time (1–8); on a link with latency, several in flight are faster. One-at-a-time clients such as WebUploader are not affected.",
  'uploadSettings.library.image': 'Image library',
  'uploadSettings.library.file': 'File library',
  'uploadSettings.library.video': 'Video library',
  'uploadSettings.library.audio': 'Audio library',
  'uploadSettings.extensions': 'Allowed extensions',
  'uploadSettings.extensionsPlaceholder': 'Type an extension and press Enter, e.g. jpg',
  'uploadSettings.extensionsRequired': 'At least one extension is needed',
  'uploadSettings.extensionInvalid': 'Extensions are lower-case letters and digits: {{list}}',
  'uploadSettings.runnable':
    '{{list}} can run scripts in a browser and is not allowed in the image library; put such files in the file library (served as downloads).',
  'uploadSettings.maxSize': 'Largest file',
  'uploadSettings.keepMetadata': 'Keep original metadata',
  'uploadSettings.keepMetadataHelp':
    'Off (the default): JPEG, PNG, WebP and HEIC images lose their location, device and time metadata on upload, keeping orientation, colour profile and copyright. On: they are stored as sent.',
  'uploadSettings.mib': 'MiB',
  'uploadSettings.reset': 'Restore defaults',
  'uploadSettings.resetHint': 'The form now holds the defaults; save to apply them.',
  'uploadSettings.noPermission': 'You may not change settings.',
};
