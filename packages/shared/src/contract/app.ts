import type { ShownMenuItem } from '../rules';
import type { PublicUser } from './auth';

/** Answer of `app/config` (DESIGN 5). */
export interface AppConfigResponse {
  config: {
    siteName: string;
    version: string;
    [key: string]: unknown;
  };
  user: PublicUser;
  /** Hash of the built web assets; changes when a new version is deployed. */
  hashPC: string;
  /** Map of lazy data set name to the hash of its data (SPEC 4.2). */
  hashLazyValue: Record<string, string>;
}

export interface AdminAppConfigResponse extends AppConfigResponse {
  rules: string[];
  menus: ShownMenuItem[];
}
