import { useEffect, useRef } from 'react';

/** Open layers that Esc closes, topmost last. */
const layers: { close: () => void }[] = [];

/** Where Esc belongs to something else first: an open list, a confirm, text being composed. */
function ownedElsewhere(event: KeyboardEvent): boolean {
  if (event.isComposing) return true;
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return false;
  return (
    target.closest('[aria-expanded="true"]') !== null ||
    target.closest('.ant-modal-confirm') !== null
  );
}

function onKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Escape' || ownedElsewhere(event)) return;
  const top = layers.at(-1);
  if (!top) return;
  // Captured before any dialog sees it: only the topmost layer closes, whatever has focus.
  event.stopPropagation();
  event.preventDefault();
  top.close();
}

/**
 * Esc closes this layer (a dialog, a picker) while it is open and on top of the others, wherever
 * focus is: antd closes a modal on Esc only when focus is inside it, and nested dialogs then close
 * the wrong one or none.
 */
export function useEscapeLayer(open: boolean, close: () => void): void {
  const latest = useRef(close);
  useEffect(() => {
    latest.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const layer = { close: () => latest.current() };
    layers.push(layer);
    if (layers.length === 1) document.addEventListener('keydown', onKeyDown, true);
    return () => {
      layers.splice(layers.indexOf(layer), 1);
      if (layers.length === 0) document.removeEventListener('keydown', onKeyDown, true);
    };
  }, [open]);
}
