import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { setMediaPreferences, setWindowWidth } from '@/test-utils/media';
import { resetStores } from '@/test-utils/reset-stores';

// antd under jsdom is slow on a busy 2-core machine: give async queries room before failing.
configure({ asyncUtilTimeout: 10_000 });

// Test files share one module graph (isolate: false), so every test starts from a fresh page
// whatever ran before it: nothing stored, Chinese, a 1280 px window with no system preference
// (light theme, motion), the page-wide stores and the query cache as they begin.
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  setMediaPreferences([]);
  resetStores();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  document.body.innerHTML = '';
});
