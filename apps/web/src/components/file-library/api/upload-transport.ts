import type { UploadTransport } from './upload-calls';
import { saveFile } from './file-save';
import { uploadChunk } from './upload-chunk';
import { initUpload } from './upload-init';

/** The upload calls of one library bound together for the upload engine. */
export function createUploadTransport(url: string, category: string): UploadTransport {
  return {
    init: (meta, signal) => initUpload(url, category, meta, signal),
    chunk: (fields, body, signal, onProgress) =>
      uploadChunk(url, category, fields, body, signal, onProgress),
    save: (body, signal) => saveFile(url, category, body, signal),
  };
}
