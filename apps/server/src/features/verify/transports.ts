import nodemailer from 'nodemailer';
import type { MessagingConfig } from './messaging.settings';

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Delivers one message or throws with a reason an admin can act on. */
export type Send = (message: Message) => Promise<void>;

const TIMEOUT_MS = 10_000;

/** SMTP through nodemailer; `none` never upgrades the connection, `starttls` insists on it. */
export function smtpSender(smtp: MessagingConfig['smtp']): Send {
  if (!smtp.host) return () => Promise.reject(new Error('SMTP host is not configured'));
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
    if (!sms.url) throw new Error('SMS webhook URL is not configured');
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
    if (!res.ok) throw new Error(`SMS webhook answered HTTP ${res.status}`);
  };
}
