import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/** A stylesheet of the build, large enough for the build to keep a gzipped copy of it. */
const styles = `.app{color:red}\n`.repeat(200);

describe('with a built web app', () => {
  let t: TestApp;
  let webDir: string;
  const errorLines: string[] = [];
  const errorLog = new Writable({
    write(chunk: Buffer, _encoding, done) {
      errorLines.push(chunk.toString());
      done();
    },
  });
  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'atrium-web-'));
    mkdirSync(join(webDir, 'admin'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(
      join(webDir, 'index.html'),
      '<div id="app"></div><script src="/assets/member-1a2b.js"></script>',
    );
    writeFileSync(join(webDir, 'admin', 'index.html'), '<div id="app"></div><!-- admin -->');
    writeFileSync(
      join(webDir, 'admin', 'index.html.gz'),
      gzipSync('<div id="app"></div><!-- admin -->'),
    );
    writeFileSync(join(webDir, 'assets', 'member-1a2b.js'), 'console.log("member")');
    // As the build leaves it: a gzipped copy beside a text file (apps/web/precompress.ts).
    writeFileSync(join(webDir, 'assets', 'styles-3c4d.css'), styles);
    writeFileSync(join(webDir, 'assets', 'styles-3c4d.css.gz'), gzipSync(styles));
    writeFileSync(join(webDir, 'favicon.svg'), '<svg/>');
    writeFileSync(join(webDir, '.env'), 'SECRET=1');
    t = await createTestApp({
      env: { ATRIUM_WEB_DIR: webDir },
      deps: { logger: pino({ level: 'error' }, errorLog) },
    });
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves the member app at / and the admin app at /admin/, always revalidated', async () => {
    const member = await get('/');
    expect(member.statusCode).toBe(200);
    expect(member.headers['content-type']).toMatch(/^text\/html/);
    expect(member.body).toContain('member-1a2b.js');
    expect(member.headers['cache-control']).toBe('no-cache');

    const admin = await get('/admin/');
    expect(admin.statusCode).toBe(200);
    expect(admin.body).toContain('<!-- admin -->');
    expect(admin.headers['cache-control']).toBe('no-cache');
  });

  it('redirects /admin to /admin/', async () => {
    const res = await get('/admin');
    expect([301, 302, 308]).toContain(res.statusCode);
    expect(res.headers.location).toBe('/admin/');
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await get('/assets/member-1a2b.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("member")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the gzipped copy to a browser that accepts gzip, the file itself to others', async () => {
    const zipped = await t.app.inject({
      method: 'GET',
      url: '/assets/styles-3c4d.css',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^text\/css/);
    expect(String(zipped.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(zipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(styles);

    // An entry page's gzipped copy is revalidated as the page is (a deploy shows at once).
    const page = await t.app.inject({
      method: 'GET',
      url: '/admin/',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(page.rawPayload).toString()).toContain('<!-- admin -->');

    const asIs = await get('/assets/styles-3c4d.css');
    expect(asIs.headers['content-encoding']).toBeUndefined();
    expect(asIs.body).toBe(styles);
  });

  it('serves other files of the build', async () => {
    const res = await get('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).not.toContain('immutable');
  });

  it('answers 404 for unknown paths, hidden files and paths outside the build', async () => {
    for (const url of [
      '/nope',
      '/assets/missing.js',
      '/admin/nope',
      '/.env',
      '/../package.json',
      '/%2e%2e/package.json',
    ]) {
      expect((await get(url)).statusCode, url).toBeGreaterThanOrEqual(400);
      expect((await get(url)).statusCode, url).toBeLessThan(500);
    }
    expect((await get('/nope')).statusCode).toBe(404);
  });

  it('answers a folder of the build (/assets/) with a 404 envelope, logging no error', async () => {
    for (const url of ['/assets/', '/assets']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({
        code: -1,
        msg: '未找到',
        data: { error: 'http.notFound', params: {} },
      });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
    expect(errorLines).toEqual([]);
  });

  it('puts the security headers on pages too', async () => {
    const res = await get('/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('hands the page an XSRF cookie', async () => {
    const res = await get('/');
    expect(res.cookies.map((c) => c.name)).toContain('XSRF-TOKEN');
  });
});

describe('without a build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('tells the visitor to run the build', async () => {
    for (const url of ['/', '/admin/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('npm run build');
    }
  });

  it('still answers 404 for other paths', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/x.js' })).statusCode).toBe(404);
  });
});
