import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The pages whose content changes whenever the hashed assets they reference change. */
const ENTRY_PAGES = ['index.html', join('admin', 'index.html')];

/**
 * `hashPC` (SPEC 4.3): a short hash of the built entry pages, so open tabs notice a deploy.
 * Files are re-read only when their mtime or size changes, and stat'ed at most once a second.
 */
export class WebVersion {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private signature = '';
  private hash = 'dev';

  constructor(
    private readonly webDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  current(): string {
    const now = this.now();
    if (now - this.checkedAt < 1000) return this.hash;
    this.checkedAt = now;
    const stats = ENTRY_PAGES.map((page) => {
      try {
        const s = statSync(join(this.webDir, page));
        return `${s.mtimeMs}:${s.size}`;
      } catch {
        return undefined;
      }
    });
    if (stats.every((s) => s === undefined)) {
      this.signature = '';
      this.hash = 'dev';
      return this.hash;
    }
    const signature = stats.join('|');
    if (signature !== this.signature) {
      const digest = createHash('sha256');
      for (const page of ENTRY_PAGES) {
        try {
          digest.update(readFileSync(join(this.webDir, page)));
        } catch {
          digest.update('-');
        }
      }
      this.signature = signature;
      this.hash = digest.digest('hex').slice(0, 16);
    }
    return this.hash;
  }
}
