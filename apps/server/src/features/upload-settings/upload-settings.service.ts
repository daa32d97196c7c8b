import { defaultUploadConfig, libraries, type UploadConfig } from '@atrium/shared/contract/files';
import {
  browserRunnableExtensions,
  type UploadSettingsView,
} from '@atrium/shared/contract/upload-settings';
import { ApiError, message, type MessageRef } from '../../http/envelope';
import type { SettingsRepository } from '../../db/settings.repository';
import { loadUploadConfig, uploadSettingKey } from '../library/index';

const MiB = 1024 * 1024;

const formatMiB = (bytes: number): MessageRef =>
  bytes < MiB
    ? message('files.bytes', { count: bytes })
    : message('files.mebibytes', { count: Number((bytes / MiB).toFixed(2)) });

/**
 * The admin editor of the `upload` setting (DESIGN 7, rule `system/upload`). The upload engine
 * reads the setting on every `config` and `init`, so a save applies to the next call.
 */
export class UploadSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly storage: { driver: 'local' | 's3'; minChunkSize: number },
    private readonly now: () => number,
    /** Told once a new configuration is stored (app/config's lazy hash of it is dropped). */
    private readonly onSaved: () => Promise<void>,
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
      throw new ApiError({
        ...message('files.runnableInImages', { extensions: runnable.join(', ') }),
        field: 'category.image.extensions',
      });
    }
    if (config.chunkSize < this.storage.minChunkSize) {
      const sizes = {
        min: formatMiB(this.storage.minChunkSize),
        got: formatMiB(config.chunkSize),
      };
      throw new ApiError({
        ...(this.storage.driver === 's3'
          ? message('files.chunkSizeMinS3', sizes)
          : message('files.chunkSizeMin', sizes)),
        field: 'chunkSize',
      });
    }
    await this.settings.set(uploadSettingKey, config, this.now());
    await this.onSaved();
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
