import { defaultUploadConfig, libraries, type UploadConfig } from '@atrium/shared/contract/files';
import {
  browserRunnableExtensions,
  type UploadSettingsView,
} from '@atrium/shared/contract/upload-settings';
import { ApiError } from '../../http/envelope';
import type { SettingsRepository } from '../../db/settings.repository';
import { loadUploadConfig, uploadSettingKey } from '../upload/index';

const MiB = 1024 * 1024;

const formatMiB = (bytes: number) =>
  bytes < MiB ? `${bytes} bytes` : `${Number((bytes / MiB).toFixed(2))} MiB`;

/**
 * The admin editor of the `upload` setting (DESIGN 7, rule `system/upload`). The upload engine
 * reads the setting on every `config` and `init`, so a save applies to the next call.
 */
export class UploadSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly storage: { driver: 'local' | 's3'; minChunkSize: number },
    private readonly now: () => number,
  ) {}

  async get(): Promise<UploadSettingsView> {
    return {
      config: await loadUploadConfig(this.settings, this.storage.minChunkSize),
      defaults: defaultUploadConfig,
      minChunkSize: this.storage.minChunkSize,
      storageDriver: this.storage.driver,
    };
  }

  async save(input: UploadConfig): Promise<UploadSettingsView> {
    const config = normalise(input);
    const runnable = config.category.image.extensions.filter((ext) =>
      (browserRunnableExtensions as readonly string[]).includes(ext),
    );
    if (runnable.length > 0) {
      throw new ApiError(
        `category.image.extensions: ${runnable.join(', ')} can run scripts in a browser and is not allowed in the image library; put such files in the file library`,
      );
    }
    if (config.chunkSize < this.storage.minChunkSize) {
      const why = this.storage.driver === 's3' ? ' with S3 storage (its smallest part)' : '';
      throw new ApiError(
        `chunkSize: at least ${formatMiB(this.storage.minChunkSize)}${why}; got ${formatMiB(config.chunkSize)}`,
      );
    }
    await this.settings.set(uploadSettingKey, config, this.now());
    return this.get();
  }
}

/** Extensions without duplicates, in the order given. */
function normalise(config: UploadConfig): UploadConfig {
  const category = { ...config.category };
  for (const library of libraries) {
    const rules = config.category[library];
    category[library] = { ...rules, extensions: [...new Set(rules.extensions)] };
  }
  return {
    chunkSize: config.chunkSize,
    parallelChunks: config.parallelChunks,
    ...(config.trashDays !== undefined ? { trashDays: config.trashDays } : {}),
    category,
  };
}
