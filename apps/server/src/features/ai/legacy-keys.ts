import { createDecipheriv, hkdfSync } from 'node:crypto';
import type { SecretBox } from '../../security/secret-box';
import type { ProvidersRepository } from './providers.repository';

/**
 * Provider keys were once sealed by a box of their own: `v1:<base64url(iv|tag|ciphertext)>`, key
 * HKDF-SHA256(secret, salt "atrium", info "ai-provider-api-key"). Every secret is now sealed by
 * security/secret-box (`v1.<iv>.<tag>.<ciphertext>`); this reads the old format once, at start-up,
 * and seals each such key again. The two formats differ in their separator, so nothing is read
 * twice, and a key that cannot be opened is left as it is (the admin sees "enter it again").
 */
const LEGACY_PREFIX = 'v1:';

function openLegacyKey(secret: string, sealed: string): string | undefined {
  if (!sealed.startsWith(LEGACY_PREFIX)) return undefined;
  try {
    const key = Buffer.from(hkdfSync('sha256', secret, 'atrium', 'ai-provider-api-key', 32));
    const raw = Buffer.from(sealed.slice(LEGACY_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Seals again, with `box`, every provider key still in the old format; returns how many. */
export async function resealLegacyKeys(
  repo: ProvidersRepository,
  box: SecretBox,
  secret: string,
): Promise<number> {
  let resealed = 0;
  for (const provider of await repo.listProviders()) {
    const plain = openLegacyKey(secret, provider.apiKeySealed);
    if (plain === undefined) continue;
    await repo.updateProvider(provider.id, { apiKeySealed: box.seal(plain) });
    resealed += 1;
  }
  return resealed;
}
