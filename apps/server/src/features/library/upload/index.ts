export { ChunkFormError, readChunkForm, type FileTap } from './chunk-form';
export { UploadGrants, fileOfChunk, grantCovers, type Grant } from './upload-grants.service';
export {
  about,
  checkFileName,
  libraryName,
  loadUploadConfig,
  newAddress,
  parseLibrary,
  uploadSettingKey,
  type SettingsReader,
} from './upload-rules';
export { uploadRecords, type UploadRecords } from './upload-records';
export { UnsavedUploadsRepository } from './unsaved-uploads.repository';
export { UploadService, thumbWidth } from './upload.service';
