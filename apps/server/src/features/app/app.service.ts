import {
  adminMenu,
  filterMenu,
  type AdminAppConfigResponse,
  type AppConfigResponse,
  type PublicUser,
} from '@atrium/shared';
import serverPackage from '../../../package.json' with { type: 'json' };
import type { AdminPrincipal, MemberPrincipal } from '../../http/principal';
import type { KeptSettings } from '../../db/kept-settings';
import type { LazyHashes } from './lazy-hashes';
import type { WebVersion } from './web-version';

export const DEFAULT_SITE_NAME = 'Atrium';

const publicUser = (who: AdminPrincipal | MemberPrincipal | null): PublicUser =>
  who
    ? { id: who.id, username: who.username, nickname: who.nickname, avatar: who.avatar }
    : { id: 0 };

export class AppService {
  constructor(
    private readonly deps: {
      settings: KeptSettings;
      webVersion: WebVersion;
      lazyHashes: LazyHashes;
      /** More public config from other features (the site's logo, banners...). */
      extraConfig?: () => Promise<Record<string, unknown>>;
    },
  ) {}

  private async siteConfig(): Promise<AppConfigResponse['config']> {
    const siteName = await this.deps.settings.get('siteName');
    return {
      ...(await this.deps.extraConfig?.()),
      siteName: typeof siteName === 'string' && siteName.trim() ? siteName : DEFAULT_SITE_NAME,
      version: serverPackage.version,
    };
  }

  async memberConfig(member: MemberPrincipal | null): Promise<AppConfigResponse> {
    return {
      config: await this.siteConfig(),
      user: publicUser(member),
      hashPC: this.deps.webVersion.current(),
      hashLazyValue: await this.deps.lazyHashes.all(),
    };
  }

  async adminConfig(admin: AdminPrincipal | null): Promise<AdminAppConfigResponse> {
    const rules = admin ? admin.rules : [];
    return {
      ...(await this.memberConfig(null)),
      user: publicUser(admin),
      rules,
      menus: admin ? filterMenu(adminMenu, rules) : [],
    };
  }
}
