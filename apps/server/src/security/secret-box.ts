import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Encrypts small secrets (SMTP passwords, API keys) kept in the database. */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or undefined when the value was sealed with another secret or is damaged. */
  open(sealed: string): string | undefined;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a key derived (HKDF-SHA256) from the server secret (ATRIUM_SECRET or the
 * generated secret file) and a purpose, so each use gets its own key. Sealed values read
 * `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function createSecretBox(secret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'atrium-secret-box', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
      return [VERSION, ...parts].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(body, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
