/** The file library's public surface (DESIGN 3): its registration and what other features use. */
export { registerFilesFeature, type FilesFeature } from './files.feature';
export { libraryImages, type ImageAccess } from './member-images';
export { holdFiles, releaseConversationFiles, type RefHolder } from './file-refs';
