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

/**
 * The `motion` of an antd Tree: none for a visitor who asked for less. antd's Tree keeps its
 * collapse motion whatever the theme says, and the tree ignores expand and collapse keys while it
 * runs; with the theme's motion off its transition never ends, so each one waited out the
 * motion's 500 ms deadline and a keyboard user's next Enter or arrow was lost.
 */
export function useTreeMotion(): false | undefined {
  return useReducedMotion() ? false : undefined;
}
