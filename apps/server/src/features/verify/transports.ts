import nodemailer from 'nodemailer';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';
import type { MessagingConfig } from './messaging.settings';

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** A transport's refusal in words of the catalogue (issue 27), for the admin's outbox and test. */
export class DeliveryFailure extends Error {
  constructor(readonly ref: MessageRef) {
    super(ref.key);
    this.name = 'DeliveryFailure';
  }
}

/** Why a delivery failed, as a message: ours, or the transport's own words wrapped in one. */
export function deliveryReason(err: unknown): MessageRef {
  if (err instanceof DeliveryFailure) return err.ref;
  return message('account.deliveryError', {
    reason: err instanceof Error ? err.message : String(err),
  });
}

/** Delivers one message or throws with a reason an admin can act on. */
export type Send = (message: Message) => Promise<void>;

const TIMEOUT_MS = 10_000;

/** SMTP through nodemailer; `none` never upgrades the connection, `starttls` insists on it. */
export function smtpSender(smtp: MessagingConfig['smtp']): Send {
  if (!smtp.host) {
    return () => Promise.reject(new DeliveryFailure(message('account.smtpHostMissing')));
  }
  const transporter = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  const from = smtp.from || smtp.user || `no-reply@${smtp.host}`;
  return async (message) => {
    try {
      await transporter.sendMail({ from, ...message });
    } finally {
      transporter.close();
    }
  };
}

/**
 * The SMS webhook: POST JSON `{to, text}` to the configured URL, with `Authorization: Bearer` and
 * the secret when one is set (what a gateway checks to know the call is ours); any 2xx answer is
 * delivery. Redirects are refused, so the secret never reaches an address it was not saved for.
 */
export function webhookSender(sms: MessagingConfig['sms']): Send {
  return async ({ to, text }) => {
    if (!sms.url) throw new DeliveryFailure(message('account.webhookUrlMissing'));
    const res = await fetch(sms.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(sms.secret ? { authorization: `Bearer ${sms.secret}` } : {}),
      },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
    await res.body?.cancel();
    if (!res.ok)
      throw new DeliveryFailure(message('account.webhookStatus', { status: res.status }));
  };
}
