/**
 * The file library's public surface (DESIGN 3): files, categories, uploads, blobs, trash and
 * usage, with its registration and what other features use.
 */
export { registerLibraryFeature, type LibraryFeature } from './library.feature';
export { filesDb, type FilesDb } from './library.tables';
export { libraryImages, type ImageAccess } from './member-images';
export { holdFiles, releaseConversationFiles, type RefHolder } from './file-refs';
export { loadUploadConfig, uploadSettingKey, type SettingsReader } from './upload/index';
