/** The file library's public surface (DESIGN 3): its registration and what other features use. */
export { registerFilesFeature, storageOptions, type FilesFeature } from './files.feature';
export { libraryImages, MAX_IMAGE_BYTES, type ImageAccess } from './member-images';
