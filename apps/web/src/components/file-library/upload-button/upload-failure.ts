import { Code } from '@atrium/shared/codes';
import { shouldRetryUpload } from '@atrium/shared/limits';
import type { UploadError } from './upload-engine';

/** Refusals that say "send it again in a moment": a later try meets another state. */
const passingRefusals: ReadonlySet<string> = new Set([
  'files.beingFinished',
  'files.lostDatabase',
  'files.chunkBusy',
  'files.chunkTakenOver',
  'files.chunkDamaged',
  'http.shouldRetryUpload',
]);

/**
 * Whether sending the file again can end otherwise (issue 28): the network, a server failure, an
 * outage, a refusal that passes by itself, or a restart the server kept asking for can; a refusal
 * of the file itself (its content against its extension, the type and size rules, a quota, a
 * name) cannot, and the queue offers no Retry for it.
 */
export function canRetry(error: UploadError): boolean {
  if (error.outage) return true;
  if (error.kind !== 'code') return true;
  if (error.message.includes(shouldRetryUpload)) return true;
  const refusal = error.refusal;
  if (!refusal) return false;
  if (refusal.code === Code.TooManyRequests || refusal.code === Code.Unavailable) return true;
  return refusal.key !== undefined && passingRefusals.has(refusal.key);
}
