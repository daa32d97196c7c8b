/**
 * jsdom has no matchMedia. This one answers width queries from a window width the test chooses,
 * and `prefers-*` queries from the preferences the test sets, and tells listeners when either
 * changes, like a browser being resized or its system settings changed.
 */
type Listener = (event: { matches: boolean; media: string }) => void;

let width = 1280;
/** `prefers-*` features the simulated visitor has, as written in a query: "prefers-color-scheme: dark". */
let preferences = new Set<string>();
const lists = new Set<{ query: string; listeners: Set<Listener> }>();

function matches(query: string): boolean {
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const preference = /prefers-[a-z-]+:\s*[a-z-]+/.exec(query);
  return (
    (!max?.[1] || width <= Number(max[1])) &&
    (!min?.[1] || width >= Number(min[1])) &&
    (!preference || preferences.has(preference[0].replace(/:\s*/, ': ')))
  );
}

/** The visitor's system preferences, e.g. `['prefers-reduced-motion: reduce']`. */
export function setMediaPreferences(next: string[]): void {
  preferences = new Set(next);
  setWindowWidth(width);
}

export function setWindowWidth(next: number): void {
  width = next;
  window.matchMedia = (query: string) => {
    const entry = { query, listeners: new Set<Listener>() };
    lists.add(entry);
    const list = {
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
    };
    return list as unknown as MediaQueryList;
  };
  for (const entry of lists) {
    const event = { matches: matches(entry.query), media: entry.query };
    entry.listeners.forEach((listener) => listener(event));
  }
}

/** jsdom has no ResizeObserver either; antd measures with it but renders without sizes. */
export function installResizeObserver(): void {
  if (typeof window.ResizeObserver === 'function') return;
  window.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

/** Installs the width-answering matchMedia, starting at `initialWidth`. */
export function installMatchMedia(initialWidth = 1280): void {
  setWindowWidth(initialWidth);
}
