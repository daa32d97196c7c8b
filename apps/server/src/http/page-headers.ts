import type { Config } from '../config';
import { helmetHeaders } from './security-headers';

/**
 * The Content-Security-Policy of every answer. Frames load from this site only, and from
 * `frameOrigin` when one is given: the external file selector's (a site setting, SPEC 2.4).
 */
export function contentSecurityPolicy(config: Config, frameOrigin?: string) {
  const s3Origin =
    config.storage.driver === 's3' && config.storage.publicUrl
      ? [new URL(config.storage.publicUrl).origin]
      : [];
  // No upgrade-insecure-requests: the default install is plain http, also on LAN addresses.
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      // hash-wasm compiles WebAssembly for the in-browser MD5 of uploads.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // antd and the editors set inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...s3Origin],
      mediaSrc: ["'self'", 'blob:', ...s3Origin],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      ...(frameOrigin ? { frameSrc: ["'self'", frameOrigin] } : {}),
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
    },
  };
}

/**
 * The security headers every answer carries (helmet's), rendered again only when the origin the
 * pages may frame changes: the site settings set it when they are read or saved, so a saved
 * selector address reaches every instance's pages without a restart.
 */
export class PageHeaders {
  private frameOrigin: string | undefined;
  private rendered: Readonly<Record<string, string>>;

  constructor(private readonly config: Config) {
    this.rendered = PageHeaders.render(config, undefined);
  }

  private static render(config: Config, frameOrigin: string | undefined) {
    return Object.freeze(
      helmetHeaders({ contentSecurityPolicy: contentSecurityPolicy(config, frameOrigin) }),
    );
  }

  /** The headers as they stand now. */
  get current(): Readonly<Record<string, string>> {
    return this.rendered;
  }

  /** Lets the pages frame `origin` (an http(s) origin), or nothing but this site (undefined). */
  allowFrames(origin: string | undefined): void {
    if (origin === this.frameOrigin) return;
    this.rendered = PageHeaders.render(this.config, origin);
    this.frameOrigin = origin;
  }
}
