import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { confirmDiscard, hasUnsavedChanges } from './unsaved-changes';

/**
 * Asks before the page is left while a form holds unsaved edits: another menu entry, a link, the
 * browser's back or forward (the hash router's navigations), and closing or reloading the tab (the
 * browser's own question). Mounted once, in the layout of a data router.
 */
export function LeaveGuard() {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges() && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let current = true;
    void confirmDiscard('leave').then((leave) => {
      if (!current) return;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
    return () => {
      current = false;
    };
  }, [blocker]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      // Browsers show their own words; cancelling the event is what makes them ask.
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  return null;
}
