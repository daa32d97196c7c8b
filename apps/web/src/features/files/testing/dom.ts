/**
 * jsdom has no matchMedia; antd's grid and the picker's small-window fold need one. This one
 * answers width queries from a window width the test sets, and tells listeners when it changes.
 */
type Listener = (event: MediaQueryListEvent) => void;

let width = 1280;
const lists = new Set<{ query: string; listeners: Set<Listener> }>();

function matches(query: string): boolean {
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  return (!max?.[1] || width <= Number(max[1])) && (!min?.[1] || width >= Number(min[1]));
}

export function installMatchMedia(initialWidth = 1280): void {
  width = initialWidth;
  window.matchMedia = (query: string): MediaQueryList => {
    const entry = { query, listeners: new Set<Listener>() };
    lists.add(entry);
    return {
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: Listener) => entry.listeners.add(listener),
      removeEventListener: (_type: string, listener: Listener) => entry.listeners.delete(listener),
      addListener: (listener: Listener) => entry.listeners.add(listener),
      removeListener: (listener: Listener) => entry.listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  };
}

export function setWindowWidth(next: number): void {
  width = next;
  for (const entry of lists) {
    const event = { matches: matches(entry.query), media: entry.query } as MediaQueryListEvent;
    entry.listeners.forEach((listener) => listener(event));
  }
}

/** jsdom has no ResizeObserver either; antd measures with it but works without sizes. */
export function installResizeObserver(): void {
  if (typeof window.ResizeObserver === 'function') return;
  window.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}
