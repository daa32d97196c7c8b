import { create } from 'zustand';
import type { AppConfigResponse } from '@atrium/shared';

export type SiteConfig = AppConfigResponse['config'];

export interface ConfigState {
  config: SiteConfig;
  /** True once the config has been set from the server. */
  init: boolean;
  /** Values of the lazy data sets that have loaded (SPEC 4.2), by name. */
  lazy: Record<string, unknown>;
  /** The server's hash of each lazy data set. */
  hashLazyValue: Record<string, string>;
  setConfig: (config: SiteConfig) => void;
  setHashLazyValue: (hashes: Record<string, string>) => void;
  setLazy: (name: string, value: unknown) => void;
  removeLazy: (name: string) => void;
}

const emptySiteConfig: SiteConfig = { siteName: '', version: '' };

export const useConfigStore = create<ConfigState>((set) => ({
  config: emptySiteConfig,
  init: false,
  lazy: {},
  hashLazyValue: {},
  setConfig: (config) => set({ config, init: true }),
  setHashLazyValue: (hashLazyValue) => set({ hashLazyValue }),
  setLazy: (name, value) => set((s) => ({ lazy: { ...s.lazy, [name]: value } })),
  removeLazy: (name) =>
    set((s) => {
      const lazy = { ...s.lazy };
      delete lazy[name];
      return { lazy };
    }),
}));
