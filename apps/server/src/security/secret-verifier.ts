import { createHmac } from 'node:crypto';
import type { Db } from '../db/index';
import { SettingsRepository } from '../db/settings.repository';

/**
 * Instances on one database must share the server secret: a captcha drawn on one is checked on
 * another, and a provider key sealed by one is opened by another. The database keeps a verifier
 * of the secret, so an instance started with another secret refuses to start instead of failing
 * those quietly later (DESIGN 2).
 */

export const SECRET_VERIFIER_SETTING = 'secretVerifier';

/** Versioned so the derivation can change without mistaking an old verifier for a mismatch. */
const VERIFIER_LABEL = 'atrium secret verifier v1';

/** Where the instance's secret came from; the refusal names what to set. */
export type SecretSource = { kind: 'env' } | { kind: 'file'; file: string };

class SecretMismatchError extends Error {
  constructor(source: SecretSource) {
    const used =
      source.kind === 'env'
        ? 'ATRIUM_SECRET does not match the secret this database was first started with.'
        : `No ATRIUM_SECRET is set, so this instance used the secret generated in ${source.file}, ` +
          'which is not the secret this database was first started with.';
    super(
      `${used} Every instance on one database must run with the same ATRIUM_SECRET: set it to ` +
        'the value the other instances use (an instance started without ATRIUM_SECRET keeps ' +
        'its secret in <data dir>/secret).',
    );
    this.name = 'SecretMismatchError';
  }
}

/**
 * An HMAC of a fixed label keyed by the secret: equal secrets give equal verifiers, and the
 * verifier gives nothing to derive the secret from short of guessing it.
 */
export function secretVerifier(secret: string): string {
  return `v1.${createHmac('sha256', secret).update(VERIFIER_LABEL).digest('base64url')}`;
}

/**
 * Records the verifier of `secret` when the database has none (a new install, or one upgrading
 * from before verifiers), then throws SecretMismatchError unless the recorded one matches. The
 * write does nothing when a concurrent start recorded first, so exactly one secret wins.
 */
export async function verifySecret(
  db: Db,
  secret: string,
  source: SecretSource,
  now: number,
): Promise<void> {
  const settings = new SettingsRepository(db);
  const verifier = secretVerifier(secret);
  await settings.setIfAbsent(SECRET_VERIFIER_SETTING, verifier, now);
  if ((await settings.get(SECRET_VERIFIER_SETTING)) !== verifier) {
    throw new SecretMismatchError(source);
  }
}
