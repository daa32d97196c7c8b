import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { removeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { usePreferencesStore } from '@/stores/preferences-store';
import { startFakeAtrium, type FakeAtrium, type FakeAtriumState } from './fake-atrium';
import { installResizeObserver, setWindowWidth } from './media';
import { resetStores, settleQueries } from './reset-stores';

/**
 * For admin-area tests: a fake Atrium started once per file and, before each test, fresh stores
 * (zh-CN, light theme, 1280 px wide) and a signed-out admin client pointed at it.
 */
export function setUpFakeAdminAtrium(): {
  readonly state: FakeAtriumState;
  signIn(rules: string[]): void;
} {
  let server: FakeAtrium | undefined;
  const started = () => {
    if (!server) throw new Error('the fake Atrium is not started yet (use it inside a test)');
    return server;
  };
  beforeAll(async () => {
    installResizeObserver();
    server = await startFakeAtrium();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    resetStores();
    setLanguage('zh-CN');
    usePreferencesStore.getState().setTheme('light');
    setWindowWidth(1280);
    removeCookie('admin-api-token');
    const { state, url } = started();
    state.sessions.clear();
    state.rules = ['*'];
    state.menus = undefined;
    useApiStore.getState().configure({ baseUrl: `${url}admin/`, tokenKey: 'admin-api-token' });
  });
  afterEach(async () => {
    await settleQueries();
    cleanup();
  });
  return {
    get state() {
      return started().state;
    },
    signIn(rules) {
      const { state } = started();
      state.rules = rules;
      state.sessions.add('good');
      useApiStore.getState().setToken('good');
    },
  };
}
