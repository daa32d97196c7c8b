import {
  defaultLanguage,
  isLanguage,
  languageHeader,
  pickLanguage,
  type Language,
} from '@atrium/shared/messages/catalogue';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { localize } from './envelope';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's default language (a site setting; zh-CN until one is saved). */
    siteLanguage: { get(): Language; set(lang: Language): void };
  }
  interface FastifyRequest {
    /** The language this request is answered in (issue 27, point 3). */
    lang: Language;
  }
}

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

/** The language `req` asks for: the web's header, else Accept-Language, else the site's. */
export function requestLanguage(req: FastifyRequest, siteDefault: Language): Language {
  return pickLanguage(
    headerText(req.headers[languageHeader]),
    headerText(req.headers['accept-language']),
    siteDefault,
  );
}

/**
 * Picks each request's language, and renders every envelope made with a catalogue message in it
 * before it is serialised. The site's default is held in memory: the site settings set it when
 * they are read or saved.
 */
export function registerLanguage(app: FastifyInstance): void {
  let site: Language = defaultLanguage;
  app.decorate('siteLanguage', {
    get: () => site,
    set: (lang: Language) => {
      if (isLanguage(lang)) site = lang;
    },
  });
  // A getter: also right for answers made before any hook ran (the router's refusals).
  app.decorateRequest('lang', {
    getter(this: FastifyRequest) {
      return requestLanguage(this, site);
    },
  });
  app.addHook('preSerialization', (req, _reply, payload, done) => {
    done(null, localize(payload, req.lang));
  });
}
