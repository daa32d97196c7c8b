import type { AreaName } from '@atrium/shared/areas';
/**
 * The app's event bus (SPEC 4.1). Events travel as window CustomEvents so code outside React
 * (and outside this bundle) can listen with plain addEventListener.
 */
export interface AppEvents {
  EventAppMounted: { area: AreaName };
  UpdateApp: { area: AreaName };
  UpdateCorp: Record<string, unknown>;
}

export type AppEventName = keyof AppEvents;

export function emit<K extends AppEventName>(name: K, detail: AppEvents[K]): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Subscribes; returns the function that unsubscribes. */
export function on<K extends AppEventName>(
  name: K,
  handler: (detail: AppEvents[K]) => void,
): () => void {
  const listener = (event: Event) => {
    if (event instanceof CustomEvent) handler(event.detail as AppEvents[K]);
  };
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
