import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals short secrets (provider API keys) at rest with AES-256-GCM. The key is derived from the
 * server secret (ATRIUM_SECRET or the generated one), so a copied database alone reveals nothing.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'atrium', 'ai-provider-api-key', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Throws when the value was sealed with another secret or tampered with. */
  open(sealed: string): string {
    const [version, payload] = sealed.split(':');
    if (version !== VERSION || payload === undefined) throw new Error('unknown sealed format');
    const raw = Buffer.from(payload, 'base64url');
    const iv = raw.subarray(0, IV_BYTES);
    const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}

/** What an admin sees of a key: its last four characters behind a mask, for long keys only. */
export function keyHint(key: string): string {
  if (!key) return '';
  return key.length >= 16 ? `••••${key.slice(-4)}` : '••••';
}
