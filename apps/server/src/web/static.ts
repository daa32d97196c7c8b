import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT =
  'The Atrium web app has not been built yet. Run `npm run build` (or `npm start`), then reload this page.\n';

/** Hashed file names never change content, so browsers may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app (DESIGN 2): the member app at `/`, the admin app at `/admin/`, hashed
 * assets under `/assets/`. Entry pages are always revalidated so a deploy shows up at once.
 * Any other unknown GET is a 404; there is no SPA fallback because both apps route by hash.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const assetsDir = join(webDir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    dotfiles: 'ignore',
    cacheControl: false,
    suppressWarning: true,
    // The build writes a gzipped copy beside each text file (apps/web/precompress.ts): a browser
    // that accepts gzip gets it (Vary: Accept-Encoding), any other client the file itself.
    preCompressed: true,
    // A folder is never a page here (`/` and `/admin/` are routes of their own): without this,
    // `/assets/` meets send's refusal to list a folder, which is no error, just nothing there.
    allowedPath: (pathName) => !pathName.endsWith('/'),
    setHeaders: (res, sent) => {
      // The file sent may be the gzipped copy: its headers are those of the file it stands for.
      const path = sent.replace(/\.(gz|br)$/, '');
      if (path.startsWith(assetsDir)) res.header('Cache-Control', IMMUTABLE);
      else if (path.endsWith('.html')) res.header('Cache-Control', 'no-cache');
      else res.header('Cache-Control', 'public, max-age=3600');
    },
  });

  const page = (file: string) => (_req: unknown, reply: FastifyReply) => {
    if (!existsSync(join(webDir, file))) {
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(NOT_BUILT);
    }
    return reply.sendFile(file);
  };

  app.get('/', page('index.html'));
  app.get('/admin/', page(join('admin', 'index.html')));
  app.get('/admin', (_req, reply) => reply.redirect('/admin/', 301));
}
