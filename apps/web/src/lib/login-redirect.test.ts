import { describe, expect, it } from 'vitest';
import {
  authLocation,
  currentHashPath,
  loginLocation,
  redirectToLogin,
  safeRedirect,
} from './login-redirect';

describe('login redirect', () => {
  it('reads the hash path of the page', () => {
    window.location.hash = '#/dashboard?tab=2';
    expect(currentHashPath()).toBe('/dashboard?tab=2');
    window.location.hash = '';
    expect(currentHashPath()).toBe('/');
  });

  it('sends the user to #/login?redirect=<encoded path>', () => {
    window.location.hash = '#/system/role?id=3';
    redirectToLogin();
    expect(window.location.hash).toBe('#/login?redirect=%2Fsystem%2Frole%3Fid%3D3');
    expect(loginLocation('/')).toBe('/login');
  });

  it('only returns to in-app paths, never to the login page', () => {
    expect(safeRedirect('/dashboard?x=1')).toBe('/dashboard?x=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('https://evil.test/')).toBe('/');
    expect(safeRedirect('//evil.test/')).toBe('/');
    expect(safeRedirect('/\\evil.test')).toBe('/');
    expect(safeRedirect('/login?redirect=%2Fx')).toBe('/');
    expect(safeRedirect('/register?redirect=%2Fx')).toBe('/');
    expect(safeRedirect('/forgot-password')).toBe('/');
    expect(safeRedirect('/registered-rooms')).toBe('/registered-rooms');
  });

  it('sign-up and reset carry the same path back', () => {
    expect(authLocation('/register', '/share/ab%2Fc')).toBe(
      '/register?redirect=%2Fshare%2Fab%252Fc',
    );
    expect(authLocation('/forgot-password', '/')).toBe('/forgot-password');
    expect(safeRedirect(new URLSearchParams('redirect=%2Fshare%2Fabc').get('redirect'))).toBe(
      '/share/abc',
    );
  });
});
