import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run test:a11y`: the accessibility scan of issue 29 (every route of both areas, both
// languages, widths and themes, failing on any critical or serious axe violation). It joins
// `npm test` (as an .e2e.ts spec) once the scan is clean; until then it is run on its own.
export default defineConfig({ ...base, testMatch: '**/*.a11y.ts' });
