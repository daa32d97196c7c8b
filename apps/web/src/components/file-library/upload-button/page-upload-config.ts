import type { SiteConfig } from '@/stores/config-store';
import type { UploadConfig } from './upload-rules';

function isUploadConfig(value: unknown): value is UploadConfig {
  if (typeof value !== 'object' || value === null) return false;
  const { chunkSize, category } = value as { chunkSize?: unknown; category?: unknown };
  return typeof chunkSize === 'number' && typeof category === 'object' && category !== null;
}

/** The upload configuration the page state carries as `dataUpload` (SPEC 3.6), when it does. */
export function pageUploadConfig(config: SiteConfig): UploadConfig | undefined {
  const value = config.dataUpload;
  return isUploadConfig(value) ? value : undefined;
}
