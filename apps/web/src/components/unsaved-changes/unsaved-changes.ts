import { useCallback, useEffect, useState } from 'react';
import { confirmDialog } from '@/lib/feedback';
import { tUnsaved } from './i18n';

/**
 * Forms holding edits that are not saved (a dialog, a settings page). Leaving the page (the menu,
 * the browser's back, closing the tab) asks first while any is here: see LeaveGuard.
 */
const holders = new Set<symbol>();

/** Whether some form on the page holds edits that are not saved. */
export function hasUnsavedChanges(): boolean {
  return holders.size > 0;
}

/** Counts this component's form among those with unsaved edits while `dirty`. */
export function useUnsavedChanges(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const holder = Symbol('unsaved');
    holders.add(holder);
    return () => {
      holders.delete(holder);
    };
  }, [dirty]);
}

let asking: Promise<boolean> | undefined;

/**
 * Asks whether to drop the unsaved edits: true to go on (close, leave), false to keep editing.
 * One question at a time: a second Esc or click while it is asked gets the same answer.
 */
export function confirmDiscard(why: 'close' | 'leave', text?: string): Promise<boolean> {
  asking ??= confirmDialog(text ?? tUnsaved(why === 'close' ? 'unsaved.close' : 'unsaved.leave'), {
    danger: true,
    focusCancel: true,
    okText: tUnsaved('unsaved.discard'),
    cancelText: tUnsaved('unsaved.keepEditing'),
  }).finally(() => {
    asking = undefined;
  });
  return asking;
}

/**
 * Runs `action` (open another record in the same page) at once while no form holds unsaved
 * edits, else once the person agrees to drop them.
 */
export function afterDiscard(action: () => void): void {
  if (!hasUnsavedChanges()) {
    action();
    return;
  }
  void confirmDiscard('leave').then((discard) => {
    if (discard) action();
  });
}

export interface UnsavedEdits {
  /** The form holds edits that are not saved. */
  dirty: boolean;
  /** Call on every edit (a form's onValuesChange). */
  changed: () => void;
  /** Call once the edits are saved or dropped on purpose. */
  saved: () => void;
  /** `close` wrapped: it asks first while there are unsaved edits (Esc, ×, Cancel, the mask). */
  guard: (close: () => void) => () => void;
}

/**
 * The edits of one form, counted among the page's unsaved ones while `open` (a dialog shown, a
 * page's form loaded). A form that closes starts clean the next time it opens.
 */
export function useUnsavedEdits(open: boolean, text?: string): UnsavedEdits {
  const [edited, setEdited] = useState(false);
  // Closed: what was typed is gone with the form (asked about first, or saved).
  if (!open && edited) setEdited(false);
  const dirty = open && edited;
  useUnsavedChanges(dirty);
  const changed = useCallback(() => setEdited(true), []);
  const saved = useCallback(() => setEdited(false), []);
  const guard = useCallback(
    (close: () => void) => () => {
      if (!dirty) {
        close();
        return;
      }
      void confirmDiscard('close', text).then((discard) => {
        if (discard) close();
      });
    },
    [dirty, text],
  );
  return { dirty, changed, saved, guard };
}
