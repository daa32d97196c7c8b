import { create } from 'zustand';
import type { ShownMenuItem } from '@atrium/shared';

interface PanelStyle {
  /** Offset of the panel from the top of the page (e.g. under a host page's bar). */
  top: string;
  /** The same on windows narrower than 600 px. */
  mobileTop: string;
  showLogo: boolean;
  showHeadRightTool: boolean;
  /** Keep the side menu open on small windows instead of folding it into a drawer. */
  alwaysShowMenu: boolean;
}

const defaultPanelStyle: PanelStyle = {
  top: '0px',
  mobileTop: '0px',
  showLogo: true,
  showHeadRightTool: true,
  alwaysShowMenu: false,
};

export interface PanelState {
  style: PanelStyle;
  menus: ShownMenuItem[];
  rules: string[];
  setStyle: (style: Partial<PanelStyle>) => void;
  setMenus: (menus: ShownMenuItem[]) => void;
  setRules: (rules: string[]) => void;
}

export const usePanelStore = create<PanelState>((set) => ({
  style: defaultPanelStyle,
  menus: [],
  rules: [],
  setStyle: (style) => set((s) => ({ style: { ...s.style, ...style } })),
  setMenus: (menus) => set({ menus }),
  setRules: (rules) => set({ rules }),
}));
