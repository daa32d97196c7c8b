import { describe, expect, it } from 'vitest';
import { usePanelStore } from './panel-store';
import { useUserStore } from './user-store';
import { useConfigStore } from './config-store';

describe('panel, user and config stores', () => {
  it('start with the SPEC 9 panel style and no menu', () => {
    expect(usePanelStore.getState().style).toEqual({
      top: '0px',
      mobileTop: '0px',
      showLogo: true,
      showHeadRightTool: true,
      alwaysShowMenu: false,
    });
    expect(usePanelStore.getState().menus).toEqual([]);
    usePanelStore.getState().setStyle({ showLogo: false });
    expect(usePanelStore.getState().style.showLogo).toBe(false);
    expect(usePanelStore.getState().style.top).toBe('0px');
  });

  it('mark user and config initialised once set', () => {
    expect(useUserStore.getState()).toMatchObject({ user: { id: 0 }, init: false });
    useUserStore.getState().setUser({ id: 3, username: 'ann' });
    expect(useUserStore.getState()).toMatchObject({ user: { id: 3 }, init: true });
    useUserStore.getState().reset();
    expect(useUserStore.getState().user).toEqual({ id: 0 });

    expect(useConfigStore.getState().init).toBe(false);
    useConfigStore.getState().setConfig({ siteName: 'Atrium', version: '1.0.0' });
    expect(useConfigStore.getState()).toMatchObject({ init: true, config: { siteName: 'Atrium' } });
  });
});
