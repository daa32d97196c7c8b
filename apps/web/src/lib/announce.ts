/**
 * Words for screen readers, spoken without moving the focus: two live regions (polite and
 * assertive) that stay in the page from the start, so that what is written into them is read out
 * (a region created at the moment it speaks is often missed). Visually hidden.
 */
export type Politeness = 'polite' | 'assertive';

const regions: Partial<Record<Politeness, HTMLElement>> = {};
const timers: Partial<Record<Politeness, ReturnType<typeof setTimeout>>> = {};

function region(politeness: Politeness): HTMLElement | undefined {
  if (typeof document === 'undefined') return undefined;
  const known = regions[politeness];
  if (known?.isConnected) return known;
  const el = document.createElement('div');
  el.className = 'atrium-sr-only';
  el.setAttribute('aria-live', politeness);
  el.setAttribute('aria-atomic', 'true');
  el.dataset.announcer = politeness;
  document.body.append(el);
  regions[politeness] = el;
  return el;
}

/** Puts both regions in the page ahead of their first words (the app does it on start). */
export function mountAnnouncer(): void {
  region('polite');
  region('assertive');
}

/**
 * Speaks `text` once. The region is emptied first and written a moment later, so the same words
 * twice in a row are read twice and a region that has just been created is heard.
 */
export function announce(text: string, politeness: Politeness = 'polite'): void {
  const el = region(politeness);
  if (!el) return;
  clearTimeout(timers[politeness]);
  el.textContent = '';
  timers[politeness] = setTimeout(() => {
    el.textContent = text;
  }, 50);
}
