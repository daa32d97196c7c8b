import { create } from 'zustand';

export interface ReloadState {
  /** Hash of the pages' code as first received; a different hash means a new deployment. */
  hashPC: string;
  hashLazyValue: Record<string, string> | null;
  /** Whether the new-version prompt is open. */
  hashUpdateDialog: boolean;
  /**
   * Records a hash from the server. Returns true when the user should be asked to reload: the
   * hash differs from the stored one and no prompt is open. The first hash is only stored.
   */
  receiveHashPC: (hash: string) => boolean;
  /** The prompt was dismissed; a later change may prompt again. */
  closeUpdateDialog: () => void;
  /**
   * Stores a new map of lazy-data hashes and returns the names whose hash changed. The first map
   * is only stored (nothing changed as far as this page knows).
   */
  receiveHashLazyValue: (hashes: Record<string, string>) => string[];
}

export const useReloadStore = create<ReloadState>((set, get) => ({
  hashPC: '',
  hashLazyValue: null,
  hashUpdateDialog: false,
  receiveHashPC: (hash) => {
    const { hashPC, hashUpdateDialog } = get();
    if (!hash || hash === hashPC) return false;
    if (!hashPC) {
      set({ hashPC: hash });
      return false;
    }
    if (hashUpdateDialog) return false;
    set({ hashPC: hash, hashUpdateDialog: true });
    return true;
  },
  closeUpdateDialog: () => set({ hashUpdateDialog: false }),
  receiveHashLazyValue: (hashes) => {
    const previous = get().hashLazyValue;
    set({ hashLazyValue: { ...hashes } });
    if (!previous) return [];
    return Object.keys(hashes).filter((name) => previous[name] !== hashes[name]);
  },
}));
