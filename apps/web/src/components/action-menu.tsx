import { useState, type ReactNode } from 'react';
import { Dropdown } from 'antd';
import type { MenuProps } from 'antd';

type MenuClick = NonNullable<MenuProps['onClick']>;

export interface ActionMenuProps {
  items: NonNullable<MenuProps['items']>;
  onAction: MenuClick;
  placement?: 'bottomLeft' | 'bottomRight';
  /**
   * The menu opens whenever this turns true (at mount too): the person asked for it before it
   * could show, e.g. by clicking its placeholder while the menu was still loading.
   */
  openRequested?: boolean;
  /** The button that opens the menu. */
  children: ReactNode;
}

/**
 * A button's menu of actions, usable by mouse and by keyboard alike: Enter or Space on the button
 * opens it with the focus on its first item, arrows move, Enter runs an item, Esc closes it and
 * gives the focus back to the button.
 *
 * An item run by Enter often opens a dialog. The Enter key's own default action (a click on
 * whatever holds the focus when the key's `keypress` is handled) would then land on the dialog's
 * first button, its close ×, and shut it at once; `keyboardSafe` cancels that default, so the key
 * does exactly one thing.
 */
export function ActionMenu({
  items,
  onAction,
  placement,
  openRequested = false,
  children,
}: ActionMenuProps) {
  const [open, setOpen] = useState(openRequested);
  // Adjusted while rendering (no effect, no extra paint): a request that arrives after the mount
  // (the click landed while the loaded menu was being drawn) opens it as well.
  const [requested, setRequested] = useState(openRequested);
  if (openRequested !== requested) {
    setRequested(openRequested);
    if (openRequested) setOpen(true);
  }
  return (
    <Dropdown
      trigger={['click']}
      placement={placement}
      open={open}
      onOpenChange={setOpen}
      autoFocus
      menu={{ items, onClick: keyboardSafe(onAction) }}
    >
      {children}
    </Dropdown>
  );
}

/** Cancels the default action of the key that ran a menu item (see ActionMenu). */
function keyboardSafe(onClick: MenuClick): MenuClick {
  return (info) => {
    if (info.domEvent.type === 'keydown') info.domEvent.preventDefault();
    onClick(info);
  };
}
