import { maskTarget, type Target } from '@atrium/shared/contract/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { SettingsRepository } from '../../db/settings.repository';
import type { MessagingSettings } from './messaging.settings';
import type { OutboxRepository } from './outbox.repository';
import { smtpSender, webhookSender, type Message, type Send } from './transports';

/** Outbox entries are kept this long. */
const OUTBOX_RETENTION_MS = 30 * 24 * 60 * 60_000;

const HIDDEN_CODE = '******';

export type Delivery = { ok: true } | { ok: false; error: string };

/**
 * Sends verification and test messages through the configured transport (DESIGN 7) and records
 * each one in the outbox. With the `log` transport the outbox and the server log are the delivery,
 * so the text is kept whole; after a real delivery the stored text has the code blanked out.
 */
export class Messenger {
  constructor(
    private readonly deps: {
      messaging: MessagingSettings;
      settings: SettingsRepository;
      outbox: OutboxRepository;
      log: FastifyBaseLogger;
      now: () => number;
    },
  ) {}

  private async siteName(): Promise<string> {
    const name = await this.deps.settings.get('siteName');
    return typeof name === 'string' && name.trim() ? name.trim() : 'Atrium';
  }

  async sendCode(target: Target, code: string, ip: string): Promise<Delivery> {
    const { sms } = await this.deps.messaging.load();
    const site = await this.siteName();
    const text = (c: string) =>
      target.kind === 'phone'
        ? sms.template.replaceAll('{code}', c)
        : [
            `Your ${site} verification code is ${c}. It expires in 10 minutes.`,
            `您的${site}验证码是 ${c}，10 分钟内有效。`,
            'If you did not ask for it, ignore this message.',
          ].join('\n\n');
    return this.deliver(target, ip, {
      to: target.value,
      subject: `${site} verification code`,
      text: text(code),
      stored: text(HIDDEN_CODE),
    });
  }

  async sendTest(target: Target, ip: string): Promise<Delivery> {
    const site = await this.siteName();
    const text = `This is a test message from ${site}: the ${target.kind === 'email' ? 'e-mail' : 'SMS'} transport works.`;
    return this.deliver(target, ip, {
      to: target.value,
      subject: `${site} test message`,
      text,
      stored: text,
    });
  }

  private async deliver(
    target: Target,
    ip: string,
    message: Message & { stored: string },
  ): Promise<Delivery> {
    const { outbox, log, now } = this.deps;
    const config = await this.deps.messaging.load();
    const transport = target.kind === 'email' ? config.emailTransport : config.smsTransport;
    const entry = {
      channel: target.kind,
      transport,
      target: target.value,
      subject: target.kind === 'email' ? message.subject : '',
      ip,
      createdAt: now(),
    };
    await outbox.deleteOlderThan(now() - OUTBOX_RETENTION_MS);

    if (transport === 'log') {
      await outbox.add({ ...entry, body: message.text, status: 'logged', error: '' });
      log.info(
        { channel: target.kind, to: target.value, subject: entry.subject, text: message.text },
        'message kept in the outbox (log transport)',
      );
      return { ok: true };
    }

    const send: Send = transport === 'smtp' ? smtpSender(config.smtp) : webhookSender(config.sms);
    try {
      await send({ to: message.to, subject: message.subject, text: message.text });
      await outbox.add({ ...entry, body: message.stored, status: 'sent', error: '' });
      return { ok: true };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await outbox.add({ ...entry, body: message.stored, status: 'failed', error });
      log.warn(
        { err, channel: target.kind, to: maskTarget(target.value), transport },
        'message not delivered',
      );
      return { ok: false, error };
    }
  }
}
