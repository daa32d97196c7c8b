import type { Bus } from '../bus/index';
import { KeptValues } from '../bus/news';
import type { SettingsRepository } from './settings.repository';

/** The bus channel on which instances tell one another that settings read from memory changed. */
export const KEPT_SETTINGS_CHANNEL = 'settings:kept';

/**
 * Settings that every `app/config` reads (the site's name and public look), read once and kept
 * in memory (issue 32) until their writer says `changed(key)`, here and on every other instance
 * over the bus; while the bus's pub/sub is down they are read on every call. Only keys whose
 * every writer calls `changed` may be read through here.
 */
export class KeptSettings {
  private readonly values: KeptValues<unknown>;

  constructor(
    private readonly settings: SettingsRepository,
    bus: Bus,
    onPublishFailed: (error: unknown) => void,
  ) {
    this.values = new KeptValues(bus, KEPT_SETTINGS_CHANNEL, onPublishFailed);
  }

  start(): Promise<void> {
    return this.values.start();
  }

  stop(): Promise<void> {
    return this.values.stop();
  }

  /** The parsed value, as SettingsRepository.get answers it; callers must not change it. */
  get(key: string): Promise<unknown> {
    return this.values.get(key, () => this.settings.get(key));
  }

  /** Called by a key's writer once the new value is stored. */
  async changed(...keys: string[]): Promise<void> {
    for (const key of keys) await this.values.changed(key);
  }
}
