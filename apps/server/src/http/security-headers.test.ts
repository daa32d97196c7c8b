import { describe, expect, it } from 'vitest';
import { helmetHeaders } from './security-headers';

describe('helmetHeaders', () => {
  it('renders helmet’s headers once, with the CSP built from the directives', () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'] },
      },
    });
    expect(headers['content-security-policy']).toBe("default-src 'self';img-src 'self' data:");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(headers).not.toHaveProperty('x-powered-by');
  });

  it('leaves out what is switched off', () => {
    const headers = helmetHeaders({ contentSecurityPolicy: false, frameguard: false });
    expect(headers).not.toHaveProperty('content-security-policy');
    expect(headers).not.toHaveProperty('x-frame-options');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses options helmet refuses', () => {
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ['self'] } } }),
    ).toThrow();
  });
});
