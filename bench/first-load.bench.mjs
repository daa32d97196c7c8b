// Budget (DESIGN 10): the member app's JavaScript loaded before its first route renders is at
// most 250 KB gzipped. Measured in Chromium: every script the page fetched until "#app" has
// rendered the home route, gzipped from the build output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, printTable, root, saveResult, startAtrium } from './lib.mjs';

const budgetKB = 250;
const server = await startAtrium();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
try {
  const page = await browser.newPage();
  const scripts = new Set();
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
  });
  await page.goto(server.url);
  await page.waitForFunction(() => (document.querySelector('#app')?.children.length ?? 0) > 0);
  await page.waitForLoadState('networkidle');
  const rows = [...scripts].map((path) => {
    const bytes = readFileSync(join(root, 'apps/web/dist', path));
    return {
      script: path,
      rawKB: +(bytes.length / 1024).toFixed(1),
      gzipKB: +(gzipSync(bytes).length / 1024).toFixed(1),
    };
  });
  const totalKB = +rows.reduce((s, r) => s + r.gzipKB, 0).toFixed(1);
  printTable([...rows, { script: 'TOTAL', rawKB: '', gzipKB: totalKB }]);
  const pass = totalKB <= budgetKB;
  console.log(
    `member first load: ${totalKB} KB gzipped JS (budget ${budgetKB} KB) ${pass ? 'OK' : 'OVER BUDGET'}`,
  );
  saveResult('first-load', { totalKB, budgetKB, pass, scripts: rows });
  if (!pass) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
}
