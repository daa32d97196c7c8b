import { create } from 'zustand';
import type { PublicUser } from '@atrium/shared';

export interface UserState {
  user: PublicUser;
  /** True once the user has been loaded; `user.id` 0 then means anonymous. */
  init: boolean;
  setUser: (user: PublicUser) => void;
  /** Back to anonymous (after logout). */
  reset: () => void;
}

const anonymousUser: PublicUser = { id: 0 };

export const useUserStore = create<UserState>((set) => ({
  user: anonymousUser,
  init: false,
  setUser: (user) => set({ user, init: true }),
  reset: () => set({ user: anonymousUser }),
}));

/** The name to greet someone by. */
export function displayName(user: PublicUser): string {
  return user.nickname || user.username || `#${user.id}`;
}
