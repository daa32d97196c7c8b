import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords are hashed with argon2id (the library default: 19 MiB, 2 passes, 1 lane, as OWASP
 * recommends). The PHC string carries its own parameters, so they can be raised later.
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of a random password, checked when an account doesn't exist so timing reveals nothing. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(
  passwordHash: string | undefined,
  password: string,
): Promise<boolean> {
  if (passwordHash === undefined) {
    decoy ??= hash(randomBytes(16).toString('hex'));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A random password for generated accounts: 16 characters of base64url (96 bits). */
export const generatePassword = (): string => randomBytes(12).toString('base64url');
