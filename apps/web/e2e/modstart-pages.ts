import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AreaName } from '@atrium/shared/areas';
import { fileLibraryAddresses } from '@atrium/shared/contract/files';
import type { Page } from '@playwright/test';

/*
 * ModStart's own built assets (fixtures/modstart, copied unchanged; see its README) in pages
 * written like ModStart's Blade views, served on Atrium's origin by this browser test alone:
 * Playwright answers their GETs from the fixture folder, every other request reaches Atrium.
 */

const fixtures = fileURLToPath(new URL('./fixtures/modstart/', import.meta.url));
/** Where the test serves the pages and assets, on Atrium's origin. */
export const modstartRoot = '/__modstart/';

const types: Record<string, string> = {
  '.js': 'application/javascript',
  '.css': 'text/css',
  '.woff': 'font/woff',
  '.html': 'text/html',
};

/** The area's file-manager address without the library: what ModStart's pages call `url`. */
export function managerBase(area: AreaName): string {
  return fileLibraryAddresses[area].replace('/:category', '');
}

/** `layout/frame.blade.php`'s head: jQuery and `common/base.js` (MS.api, MS.dialog). */
const frameHead = `<meta charset="UTF-8">
<link rel="stylesheet" href="${modstartRoot}asset/vendor/element-ui/index.css">
<style>/* ModStart's icon font is not in the copy: its icons get a box to click. */
  .iconfont { display: inline-block; min-width: 12px; min-height: 12px; }</style>
<script>window.__msCDN = "${modstartRoot}"; window.__msRoot = "/";</script>
<script src="${modstartRoot}asset/vendor/jquery.js"></script>
<script src="${modstartRoot}asset/common/base.js"></script>`;

/**
 * `admin/data/fileManager.blade.php` (and the member one): the file-manager dialog page. Opened
 * by a selector, it hands the chosen files to `parent.__selectorDialogItems`.
 */
function dialogPage(area: AreaName, library: string): string {
  const manager = { url: managerBase(area), category: library };
  return `<!doctype html><html><head>${frameHead}</head><body>
<div id="app"></div>
<script src="${modstartRoot}asset/vendor/vue.js"></script>
<script src="${modstartRoot}asset/vendor/element-ui/index.js"></script>
<script>
  window.__fileManager = Object.assign(${JSON.stringify(manager)}, {
    permission: { 'View': true, 'Upload': true, 'Delete': true, 'Add/Edit': true },
  });
</script>
<script src="${modstartRoot}asset/entry/dataFileManager.js"></script>
</body></html>`;
}

/**
 * An edit form as ModStart's form fields make it: `MS.uploadButton` on the area's file library,
 * and a "File Gallery" button opening the dialog page in a frame, as `selectorDialog.js` does
 * (`__selectorDialogOption`, `__selectorDialog.close()`, `__selectorDialogItems`).
 */
function formPage(area: AreaName, library: string): string {
  const server = `${managerBase(area)}/${library}`;
  return `<!doctype html><html><head>${frameHead}
<script src="${modstartRoot}asset/common/uploadButton.js"></script>
<style>#gallery iframe { width: 100%; height: 640px; border: 0; }</style>
</head><body>
<form id="form">
  <input type="hidden" name="file" id="file-value">
  <div id="upload"></div>
  <button type="button" id="open-gallery">File Gallery</button>
  <div id="gallery"></div>
</form>
<script>
  window.uploadedFiles = [];
  MS.uploadButton('#upload', {
    server: ${JSON.stringify(server)},
    extensions: 'txt,pdf',
    sizeLimit: 1024 * 1024 * 1024,
    chunkSize: window.__chunkSize || 5 * 1024 * 1024,
    callback: function (file, me) {
      window.uploadedFiles.push(file);
      $('#file-value').val(file.path);
    },
  });
  window.chosen = null;
  $('#open-gallery').on('click', function () {
    window.__selectorDialogOption = { limitMin: 1, limitMax: 1 };
    window.__selectorDialog = {
      close: function () {
        window.chosen = window.__selectorDialogItems;
        $('#file-value').val(window.chosen[0].path);
        $('#gallery').empty();
      },
    };
    $('#gallery').html('<iframe src="${modstartRoot}dialog/${area}/${library}"></iframe>');
  });
</script>
</body></html>`;
}

/** Serves the pages and assets at `modstartRoot` on the page's origin, for this page only. */
export async function serveModstart(page: Page): Promise<void> {
  await page.route(`**${modstartRoot}**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(modstartRoot.length);
    const [kind, area, library] = path.split('/');
    if ((kind === 'dialog' || kind === 'form') && (area === 'admin' || area === 'member')) {
      const body = kind === 'dialog' ? dialogPage(area, library ?? 'file') : formPage(area, 'file');
      return route.fulfill({ contentType: 'text/html', body });
    }
    const file = normalize(join(fixtures, path));
    // What the copy leaves out (file-type icons of its editor) is answered 404, as a bare site would.
    if (!file.startsWith(fixtures) || !path.startsWith('asset/') || !existsSync(file)) {
      return route.fulfill({ status: 404, body: '' });
    }
    return route.fulfill({
      contentType: types[extname(file)] ?? 'application/octet-stream',
      body: readFileSync(file),
    });
  });
}
