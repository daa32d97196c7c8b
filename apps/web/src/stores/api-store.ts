import { create } from 'zustand';
import { Code, type Envelope } from '@atrium/shared/codes';
import { Limits, TokenKey } from '@atrium/shared/limits';
import { readCookie, removeCookie, writeCookie } from '@/lib/cookies';
import { redirectToLogin } from '@/lib/login-redirect';
import { useUserStore } from './user-store';

export interface CodeProcessor {
  code: number;
  callback: (result: Envelope) => void;
}

export interface ApiState {
  /** The application's API root: "/" for members, "/admin/" for the admin area. */
  baseUrl: string;
  /** Cookie name and request header name of the token. */
  tokenKey: string;
  token: string;
  codeProcessors: CodeProcessor[];
  configure: (settings: { baseUrl: string; tokenKey: string }) => void;
  /** Keeps the token in the cookie for one hour from now (SPEC 7.1). */
  setToken: (token: string) => void;
  clearToken: () => void;
  /** Registers a handler for one response code; returns the function that removes it. */
  addCodeProcessor: (processor: CodeProcessor) => () => void;
}

/**
 * Code 1000 (not logged in): the session is gone, so drop the token, forget the user (the login
 * page would otherwise send them straight back) and go to this area's login page.
 */
export const notLoggedInProcessor: CodeProcessor = {
  code: Code.NotLoggedIn,
  callback: () => {
    useApiStore.getState().clearToken();
    useUserStore.getState().reset();
    redirectToLogin();
  },
};

export const useApiStore = create<ApiState>((set, get) => ({
  baseUrl: '/',
  tokenKey: TokenKey.member,
  token: typeof document === 'undefined' ? '' : readCookie(TokenKey.member),
  codeProcessors: [notLoggedInProcessor],
  configure: ({ baseUrl, tokenKey }) => set({ baseUrl, tokenKey, token: readCookie(tokenKey) }),
  setToken: (token) => {
    if (!token) {
      get().clearToken();
      return;
    }
    writeCookie(get().tokenKey, token, Limits.tokenCookieLifetimeMs);
    set({ token });
  },
  clearToken: () => {
    removeCookie(get().tokenKey);
    set({ token: '' });
  },
  addCodeProcessor: (processor) => {
    set((s) => ({ codeProcessors: [processor, ...s.codeProcessors] }));
    return () => set((s) => ({ codeProcessors: s.codeProcessors.filter((p) => p !== processor) }));
  },
}));
