import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Code } from '@atrium/shared';
import { hash, verify } from '@node-rs/argon2';
import { ApiError, message } from '../http/envelope';

/**
 * How many argon2 computations run at once, and how many may wait. Each one is ~19 MiB and tens
 * of milliseconds of a core on libuv's thread pool, which file reads and writes share: a flood
 * of sign-ins must queue here rather than starve every other request (DESIGN 9). Half the cores
 * leaves the rest to serving; a full queue answers "busy" at once instead of growing.
 */
export const PasswordHashing = {
  concurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
  maxWaiting: 64,
} as const;

/** The refusal when too many hashes already wait. */
export const SERVER_BUSY = message('limits.serverBusy');

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when a hashing slot is free; refuses with 1004 when too many already wait. */
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PasswordHashing.concurrency) {
    if (waiting.length >= PasswordHashing.maxWaiting) {
      throw new ApiError(SERVER_BUSY, Code.TooManyRequests, { wait: 1 });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so `running` stays counted for it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Hashing calls running and waiting now (for tests and diagnostics). */
export function passwordHashingLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

/**
 * How hard a new hash is to compute. `standard` is argon2id at the library default (19 MiB,
 * 2 passes, 1 lane, as OWASP recommends), the only cost a site uses. `test` (1 MiB, 1 pass) is for
 * test servers only, where every sign-in of thousands would otherwise spend a core's tenth of a
 * second: config refuses it with NODE_ENV=production and it is never the default.
 */
export type PasswordCost = 'standard' | 'test';

const costOptions: Record<PasswordCost, { memoryCost?: number; timeCost?: number }> = {
  standard: {},
  test: { memoryCost: 1024, timeCost: 1 },
};

let costOfNewHashes: PasswordCost = 'standard';

/** A hash of a random password, checked when an account doesn't exist so timing reveals nothing. */
let decoy: Promise<string> | undefined;

/** Sets the cost of hashes made from now on in this process (from `Config.passwordCost`). */
export function usePasswordCost(cost: PasswordCost): void {
  if (cost !== costOfNewHashes) decoy = undefined;
  costOfNewHashes = cost;
}

/**
 * Passwords are hashed with argon2id at the cost `usePasswordCost` set (standard unless told).
 * The PHC string carries its own parameters, so a hash made at any cost verifies at that cost,
 * and the cost can be raised later.
 */
export const hashPassword = (password: string): Promise<string> =>
  inSlot(() => hash(password, costOptions[costOfNewHashes]));

export async function verifyPassword(
  passwordHash: string | undefined,
  password: string,
): Promise<boolean> {
  if (passwordHash === undefined) {
    decoy ??= hash(randomBytes(16).toString('hex'), costOptions[costOfNewHashes]);
    const decoyHash = await decoy;
    await inSlot(() => verify(decoyHash, password)).catch((error: unknown) => {
      if (error instanceof ApiError) throw error;
      return false;
    });
    return false;
  }
  return inSlot(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

/** A random password for generated accounts: 16 characters of base64url (96 bits). */
export const generatePassword = (): string => randomBytes(12).toString('base64url');
