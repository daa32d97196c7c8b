import type { Bus } from '../bus/index';
import { BusNews } from '../bus/news';
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
  private readonly kept = new Map<string, unknown>();
  private readonly news: BusNews;

  constructor(
    private readonly settings: SettingsRepository,
    bus: Bus,
    onPublishFailed: (error: unknown) => void,
  ) {
    this.news = new BusNews(
      bus,
      KEPT_SETTINGS_CHANNEL,
      (key) => (key === null ? this.kept.clear() : this.kept.delete(key)),
      onPublishFailed,
    );
  }

  start(): Promise<void> {
    return this.news.start();
  }

  stop(): Promise<void> {
    return this.news.stop();
  }

  /** The parsed value, as SettingsRepository.get answers it; callers must not change it. */
  async get(key: string): Promise<unknown> {
    if (this.news.trusted() && this.kept.has(key)) return this.kept.get(key);
    const mark = this.news.mark();
    const value = await this.settings.get(key);
    if (this.news.unchangedSince(mark)) this.kept.set(key, value);
    return value;
  }

  /** Called by a key's writer once the new value is stored. */
  async changed(...keys: string[]): Promise<void> {
    for (const key of keys) await this.news.announce(key);
  }
}
