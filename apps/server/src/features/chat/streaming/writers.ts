import type { FastifyBaseLogger } from 'fastify';
import { IncidentLog } from '../../../incident-log';
import type { Bus } from '../../../bus/index';
import type { Instances } from '../../../instances/instances';

/**
 * What another instance can tell of an answer's writer whose database heartbeat is late:
 * - `gone`: it is not on the bus either (killed, frozen, or cut off from everything): its answers
 *   are ended as interrupted at once, as before (DESIGN 2: "a few seconds");
 * - `stalled`: it is still running (it keeps its presence on the bus, which does not wait on the
 *   database) but has not reached the database for a while: its answers are left to it, since it
 *   keeps streaming into memory and writes them when the database answers again (issue 26, 5);
 * - `lost`: stalled for longer than the grace: its answers are ended, saying so.
 */
export type WriterState = 'alive' | 'stalled' | 'lost' | 'gone';

const presenceKey = (instanceId: string) => `chat:writer:${instanceId}`;

/**
 * This instance's presence on the bus, beside its heartbeat in the database: a key refreshed on
 * its own timer, never waiting on the database, holding when the database last took a heartbeat.
 * A deployment of several instances has Redis (DESIGN 2), so a stalled database and a dead
 * instance look different to the others; when the bus is out of reach too, a stalled writer looks
 * dead, and learns of it (and corrects the stored reason) when the database comes back.
 */
export class WriterPresence {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private readonly writing: IncidentLog;

  constructor(
    private readonly bus: Bus,
    private readonly instances: Instances,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
    /** How long a writer that is still on the bus may go without reaching the database. */
    private readonly stallGraceMs: number,
  ) {
    this.writing = new IncidentLog(log, 'writing the chat writer presence');
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.instances.timing.heartbeatMs);
    this.timer.unref();
  }

  private beat(): Promise<void> {
    // A bus that stopped answering holds one write, not one a beat.
    this.beating ??= this.bus
      .set(
        presenceKey(this.instances.id),
        String(this.instances.lastBeatAt),
        this.instances.timing.deadAfterMs,
      )
      .then(
        () => this.writing.succeeded(),
        (error: unknown) => this.writing.failed(error),
      )
      .finally(() => {
        this.beating = undefined;
      });
    return this.beating;
  }

  /** How the writer of a streaming answer is doing; `alive` needs a fresh database heartbeat. */
  async stateOf(writer: string | null): Promise<WriterState> {
    if (writer === null) return 'gone';
    if (await this.instances.isAlive(writer)) return 'alive';
    if (writer === this.instances.id) return 'gone';
    let value: string | undefined;
    try {
      value = await this.bus.get(presenceKey(writer));
    } catch (error) {
      this.log.warn({ err: error }, 'reading a chat writer presence failed');
      return 'gone';
    }
    if (value === undefined) return 'gone';
    // A pause of this process's own is not time the writer spent out of touch (`LoopPauses`).
    const outOfTouch = this.now() - Number(value) - this.instances.recentPauseMs();
    return outOfTouch < this.stallGraceMs ? 'stalled' : 'lost';
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.bus.del(presenceKey(this.instances.id)).catch(() => undefined);
  }
}
