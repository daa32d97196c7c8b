import { create } from 'zustand';
import { Limits } from '@atrium/shared/limits';
import { hasRule } from '@atrium/shared/rules';

export interface PermissionState {
  rules: string[];
  initialised: boolean;
  setRules: (rules: string[]) => void;
  /** Forget the rules (after logout); checks wait again until new rules arrive. */
  reset: () => void;
}

export const usePermissionStore = create<PermissionState>((set) => ({
  rules: [],
  initialised: false,
  setRules: (rules) => set({ rules, initialised: true }),
  reset: () => set({ rules: [], initialised: false }),
}));

/** Synchronous check against the rules held now (false before they are initialised). */
export function can(names: string | readonly string[]): boolean {
  return hasRule(usePermissionStore.getState().rules, names);
}

/**
 * Resolves with the check once the rules are initialised, trying again every 100 ms until then
 * (SPEC 4.1). Abort the signal to stop waiting; the promise then resolves false.
 */
export function checkPermission(
  names: string | readonly string[],
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve) => {
    const attempt = (): boolean => {
      if (signal?.aborted) {
        resolve(false);
        return true;
      }
      const { initialised, rules } = usePermissionStore.getState();
      if (!initialised) return false;
      resolve(hasRule(rules, names));
      return true;
    };
    if (attempt()) return;
    const timer = setInterval(() => {
      if (attempt()) clearInterval(timer);
    }, Limits.permissionPollMs);
  });
}
