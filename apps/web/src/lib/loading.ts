import { create } from 'zustand';

interface LoadingState {
  /** Open overlays, newest last; the newest text is shown. */
  stack: { id: number; text: string | undefined }[];
}

export const useLoadingStore = create<LoadingState>(() => ({ stack: [] }));

let nextId = 1;

/**
 * Shows the full-page loading overlay ("加载中..." unless `text` is given) and returns the function
 * that hides it. Overlays nest: the page stays covered until every caller has hidden its own.
 */
export function showLoading(text?: string): () => void {
  const id = nextId++;
  useLoadingStore.setState((s) => ({ stack: [...s.stack, { id, text }] }));
  return () => useLoadingStore.setState((s) => ({ stack: s.stack.filter((e) => e.id !== id) }));
}

/** Runs `work` under the overlay. */
export async function withLoading<T>(work: () => Promise<T>, text?: string): Promise<T> {
  const hide = showLoading(text);
  try {
    return await work();
  } finally {
    hide();
  }
}
