import { useSyncExternalStore } from 'react';
import { Limits } from '@atrium/shared/limits';

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Windows narrower than 600 px (SPEC 9) get the folded, drawer-style layout. */
export function useSmallWindow(): boolean {
  return useMediaQuery(`(max-width: ${Limits.smallWindowPx - 1}px)`);
}

/** The visitor asked the system for less motion: animations are skipped (WCAG 2.3.3). */
export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
