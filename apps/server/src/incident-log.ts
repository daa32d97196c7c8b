/** The two levels it writes (a Fastify or pino logger has them). */
interface Logger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * Logs a repeating failure once per incident (issue 26): the first failure as a warning, the
 * others quietly counted, and one line when the thing works again saying how many failed. An
 * outage that fails a call per token or per beat thus writes two lines, not thousands.
 */
export class IncidentLog {
  private failures = 0;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  failed(error: unknown, context: Record<string, unknown> = {}): void {
    this.failures += 1;
    if (this.failures === 1) this.log.warn({ ...context, err: error }, `${this.what} failed`);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log.info({ failures: this.failures }, `${this.what} works again`);
    this.failures = 0;
  }
}
