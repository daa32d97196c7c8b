import { afterEach, describe, expect, it } from 'vitest';
import { adminUrl, aigcVendorUrl, apiUrl, assetUrl, buildQuery, memberUrl, setRoots } from './urls';

afterEach(() => setRoots({ root: '/', adminRoot: '/admin/', cdn: '/' }));

describe('address builders (SPEC 2.1)', () => {
  it('builds admin pages as {adminRoot}{path}?{query}', () => {
    expect(adminUrl('system/admin', { page: 2, q: 'a b' })).toBe(
      '/admin/system/admin?page=2&q=a+b',
    );
    expect(adminUrl()).toBe('/admin/');
  });

  it('builds member pages as {root}{path}?{query}', () => {
    expect(memberUrl('files')).toBe('/files');
    expect(memberUrl('/files', 'x=1')).toBe('/files?x=1');
  });

  it('builds API calls as {root}api/{path}?{query}', () => {
    expect(apiUrl('app/config')).toBe('/api/app/config');
    expect(apiUrl('app/config', { t: 1 }, '/admin/')).toBe('/admin/api/app/config?t=1');
  });

  it('builds static assets as {cdn}{path} and AI-content parts under vendor/Aigc', () => {
    setRoots({ cdn: 'https://cdn.example.test/static' });
    expect(assetUrl('img/logo.png')).toBe('https://cdn.example.test/static/img/logo.png');
    expect(aigcVendorUrl('chat/index.js')).toBe(
      'https://cdn.example.test/static/vendor/Aigc/chat/index.js',
    );
    expect(assetUrl('https://other.test/a.png')).toBe('https://other.test/a.png');
  });

  it('drops empty query values and leaves no bare "?"', () => {
    expect(buildQuery({ a: undefined, b: null, c: 0, d: false })).toBe('c=0&d=false');
    expect(memberUrl('x', {})).toBe('/x');
  });

  it('follows moved roots', () => {
    setRoots({ root: '/app', adminRoot: '/app/admin' });
    expect(memberUrl('x')).toBe('/app/x');
    expect(adminUrl('y')).toBe('/app/admin/y');
    expect(apiUrl('z')).toBe('/app/api/z');
  });
});
