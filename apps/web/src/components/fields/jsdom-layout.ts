/**
 * jsdom lays nothing out, and its Range lacks the measuring methods CodeMirror and ProseMirror
 * call while scrolling the cursor into view. Empty measurements are what a layout-less page has.
 */
export function installRangeMeasuring(): void {
  const empty = () => ({ x: 0, y: 0, width: 0, height: 0, top: 0, right: 0, bottom: 0, left: 0 });
  if (typeof Range.prototype.getClientRects !== 'function') {
    Range.prototype.getClientRects = () =>
      Object.assign([], { item: () => null }) as unknown as DOMRectList;
  }
  if (typeof Range.prototype.getBoundingClientRect !== 'function') {
    Range.prototype.getBoundingClientRect = () => ({ ...empty(), toJSON: empty }) as DOMRect;
  }
  if (typeof document.elementFromPoint !== 'function') {
    document.elementFromPoint = () => null;
  }
}
