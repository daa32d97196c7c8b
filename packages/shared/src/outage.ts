import { Code, type Envelope } from './codes';

/**
 * What is out of reach when a call is refused with `Code.Unavailable` (issue 26): the database,
 * Redis (shared limits and streams), storage (disk or S3), or the disk is full. The first three
 * pass on their own; a full disk needs an administrator, but the call may be tried again after.
 */
export const outages = ['database', 'redis', 'storage', 'diskFull'] as const;
export type Outage = (typeof outages)[number];

/** `data` of a `Code.Unavailable` refusal: the outage as a key, and when to try again. */
export interface UnavailableData {
  error: `unavailable.${Outage}`;
  params: { outage: Outage; retryAfterSeconds: number };
  retryable: true;
}

/** Seconds a client waits before trying a refused call again (a restart costs a few seconds). */
export const retryAfterSeconds: Record<Outage, number> = {
  database: 2,
  redis: 2,
  storage: 3,
  diskFull: 30,
};

export function unavailableData(outage: Outage): UnavailableData {
  return {
    error: `unavailable.${outage}`,
    params: { outage, retryAfterSeconds: retryAfterSeconds[outage] },
    retryable: true,
  };
}

function isOutage(value: unknown): value is Outage {
  return typeof value === 'string' && (outages as readonly string[]).includes(value);
}

/** The outage a refusal names, when it is a `Code.Unavailable` refusal. */
export function outageOfEnvelope(envelope: Pick<Envelope, 'code' | 'data'>): Outage | undefined {
  if (envelope.code !== Code.Unavailable) return undefined;
  const data = envelope.data as Partial<UnavailableData> | null;
  const outage = data?.params?.outage;
  return isOutage(outage) ? outage : 'database';
}
