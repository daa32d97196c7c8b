import '@testing-library/jest-dom/vitest';
import { _test as escKeyDown } from '@rc-component/portal/lib/useEscKeyDown';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { setMediaPreferences, setWindowWidth } from '@/test-utils/media';
import { resetStores } from '@/test-utils/reset-stores';

// antd's CSS-in-JS writes thousands of rules into <style> elements that jsdom then matches on
// every style lookup (each visibility check, each query by role), and with one module graph for
// all files they pile up from file to file. These tests don't look at pixels: the rules antd
// injects (rc-util's dynamicCSS marks its <style> elements with data-rc-order) stay empty. What
// antd's styles hide or show is checked by the browser suite, in a real Chromium.
function innerHtmlOf(proto: object | null): PropertyDescriptor | undefined {
  for (let p = proto; p; p = Object.getPrototypeOf(p) as object | null) {
    const found = Object.getOwnPropertyDescriptor(p, 'innerHTML');
    if (found) return found;
  }
  return undefined;
}
const styleText = innerHtmlOf(HTMLStyleElement.prototype);
if (styleText?.get && styleText.set) {
  const { get, set } = styleText;
  Object.defineProperty(HTMLStyleElement.prototype, 'innerHTML', {
    configurable: true,
    get(this: HTMLStyleElement) {
      return get.call(this) as string;
    },
    set(this: HTMLStyleElement, css: string) {
      set.call(this, this.hasAttribute('data-rc-order') ? '' : css);
    },
  });
}

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
  // antd hears Esc through rc-component's module-wide stack of open portals, where under
  // NODE_ENV=test every portal has the same id: a dialog left open outside the tree (antd's
  // static confirm, whose fade jsdom never ends) would keep the one entry and take the next
  // test's Esc. Every tree is unmounted here, so what is left is stale.
  escKeyDown?.().stack.splice(0);
  vi.useRealTimers();
  document.body.innerHTML = '';
});
