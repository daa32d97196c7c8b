import { defaultSmsTemplate, maskTarget, type Target } from '@atrium/shared/contract/accounts';
import {
  isMessageKey,
  message,
  render,
  type Language,
  type MessageRef,
} from '@atrium/shared/messages/catalogue';
import type { FastifyBaseLogger } from 'fastify';
import type { SettingsRepository } from '../../db/settings.repository';
import type { MessagingSettings } from './messaging.settings';
import type { OutboxRepository } from './outbox.repository';
import { deliveryReason, smtpSender, webhookSender, type Message, type Send } from './transports';

/** Outbox entries are kept this long. */
const OUTBOX_RETENTION_MS = 30 * 24 * 60 * 60_000;

const HIDDEN_CODE = '******';

export type Delivery = { ok: true } | { ok: false; error: MessageRef };

/** A delivery's error as the outbox keeps it: the message as JSON, rendered when it is read. */
const storedError = (ref: MessageRef): string =>
  JSON.stringify({ key: ref.key, params: ref.params });

/** An outbox row's error in `lang` (rows written before issue 27 hold plain text). */
export function outboxErrorText(stored: string, lang: Language): string {
  if (!stored.startsWith('{')) return stored;
  try {
    const ref = JSON.parse(stored) as MessageRef;
    return isMessageKey(ref.key) ? render(lang, ref) : stored;
  } catch {
    return stored;
  }
}

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

  /**
   * A verification code in `lang`, the language of the member the address belongs to (or of the
   * request, before there is one). An SMS template the admin wrote is sent as written; the
   * default one is the catalogue's text in `lang`.
   */
  async sendCode(target: Target, code: string, ip: string, lang: Language): Promise<Delivery> {
    const { sms } = await this.deps.messaging.load();
    const site = await this.siteName();
    const customSms = sms.template.trim() !== defaultSmsTemplate;
    const text = (c: string) =>
      target.kind === 'phone'
        ? customSms
          ? sms.template.replaceAll('{code}', c)
          : render(lang, message('account.codeSms', { code: c }))
        : render(lang, message('account.codeMailBody', { site, code: c }));
    return this.deliver(target, ip, {
      to: target.value,
      subject: render(lang, message('account.codeMailSubject', { site })),
      text: text(code),
      stored: text(HIDDEN_CODE),
    });
  }

  /** The admin's test message, in the admin's language. */
  async sendTest(target: Target, ip: string, lang: Language): Promise<Delivery> {
    const site = await this.siteName();
    const channel = message(
      target.kind === 'email' ? 'account.channelEmail' : 'account.channelSms',
    );
    const text = render(lang, message('account.testMessageBody', { site, channel }));
    return this.deliver(target, ip, {
      to: target.value,
      subject: render(lang, message('account.testMailSubject', { site })),
      text,
      stored: text,
    });
  }

  private async deliver(
    target: Target,
    ip: string,
    mail: Message & { stored: string },
  ): Promise<Delivery> {
    const { outbox, log, now } = this.deps;
    const config = await this.deps.messaging.load();
    const transport = target.kind === 'email' ? config.emailTransport : config.smsTransport;
    const entry = {
      channel: target.kind,
      transport,
      target: target.value,
      subject: target.kind === 'email' ? mail.subject : '',
      ip,
      createdAt: now(),
    };
    await outbox.deleteOlderThan(now() - OUTBOX_RETENTION_MS);

    if (transport === 'log') {
      await outbox.add({ ...entry, body: mail.text, status: 'logged', error: '' });
      log.info(
        { channel: target.kind, to: target.value, subject: entry.subject, text: mail.text },
        'message kept in the outbox (log transport)',
      );
      return { ok: true };
    }

    const send: Send = transport === 'smtp' ? smtpSender(config.smtp) : webhookSender(config.sms);
    try {
      await send({ to: mail.to, subject: mail.subject, text: mail.text });
      await outbox.add({ ...entry, body: mail.stored, status: 'sent', error: '' });
      return { ok: true };
    } catch (err) {
      const error = deliveryReason(err);
      await outbox.add({
        ...entry,
        body: mail.stored,
        status: 'failed',
        error: storedError(error),
      });
      log.warn(
        { err, channel: target.kind, to: maskTarget(target.value), transport },
        'message not delivered',
      );
      return { ok: false, error };
    }
  }
}
