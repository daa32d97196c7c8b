import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCookie, removeCookie, writeCookie } from '@/lib/cookies';
import { useApiStore } from './api-store';

afterEach(() => {
  vi.useRealTimers();
  removeCookie('api-token');
  removeCookie('admin-api-token');
});

describe('api store', () => {
  it('defaults to the member API root and the "api-token" key', () => {
    const { baseUrl, tokenKey, codeProcessors } = useApiStore.getState();
    expect(baseUrl).toBe('/');
    expect(tokenKey).toBe('api-token');
    expect(codeProcessors.map((p) => p.code)).toEqual([1000]);
  });

  it('reads the token from the cookie named by tokenKey', () => {
    writeCookie('admin-api-token', 'from-cookie', 60_000);
    useApiStore.getState().configure({ baseUrl: '/admin/', tokenKey: 'admin-api-token' });
    expect(useApiStore.getState().token).toBe('from-cookie');
    useApiStore.getState().configure({ baseUrl: '/', tokenKey: 'api-token' });
    expect(useApiStore.getState().token).toBe('');
  });

  it('keeps a set token in the cookie for one hour', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cookieWrites: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    const spy = vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      cookieWrites.push(value);
      descriptor?.set?.call(document, value);
    });
    useApiStore.getState().setToken('t-1');
    spy.mockRestore();
    expect(readCookie('api-token')).toBe('t-1');
    expect(cookieWrites[0]).toMatch(/^api-token=t-1; Max-Age=3600; Path=\//);
  });

  it('clears the cookie when the token is cleared', () => {
    useApiStore.getState().setToken('t-2');
    useApiStore.getState().clearToken();
    expect(readCookie('api-token')).toBe('');
    expect(useApiStore.getState().token).toBe('');
  });
});
