import { z } from 'zod';
import { uploadConfigSchema } from './files';

export const uploadSettingsView = z.strictObject({
  config: uploadConfigSchema,
  defaults: uploadConfigSchema,
  /** Smallest chunk size the storage accepts (5 MiB on S3). */
  minChunkSize: z.number().int().positive(),
  storageDriver: z.enum(['local', 's3']),
});
