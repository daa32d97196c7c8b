import { parseTarget } from '@atrium/shared/contract/accounts';
import type { TestApp } from '../../testing/test-app';
import { OutboxRepository } from './outbox.repository';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  from: string;
  to: string[];
  /** Headers and body as sent. */
  raw: string;
  /** The body with its transfer encoding undone. */
  text: string;
}

/** Undoes the transfer encoding nodemailer picked (quoted-printable or base64). */
function bodyText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

/**
 * A real SMTP server on a free loopback port that requires AUTH with the given credentials
 * (over plain text, as a local relay would allow), keeps every mail it accepts and every login
 * tried on it, right or wrong.
 */
export async function startSmtpServer(auth: { user: string; pass: string }) {
  const mails: ReceivedMail[] = [];
  const logins: { user: string; pass: string }[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(credentials, _session, callback) {
      logins.push({ user: credentials.username ?? '', pass: credentials.password ?? '' });
      if (credentials.username === auth.user && credentials.password === auth.pass) {
        callback(null, { user: credentials.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: bodyText(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface WebhookCall {
  method: string;
  contentType: string;
  /** The Authorization header, when the call carried one. */
  authorization: string | undefined;
  body: unknown;
}

/** A real HTTP server standing in for an SMS gateway; answers `status` and keeps every call. */
export async function startWebhook(status = 200) {
  const calls: WebhookCall[] = [];
  const state = { status };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({
        method: req.method ?? '',
        contentType: req.headers['content-type'] ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      });
      res.writeHead(state.status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    calls,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The newest outbox entry to `target`: the mail or SMS as it was written. */
export async function lastSentTo(t: TestApp, target: string) {
  const { rows } = await new OutboxRepository(t.db).page(1, 100);
  const to = parseTarget(target)?.value;
  const row = rows.find((r) => r.target === to);
  if (!row) throw new Error(`nothing sent to ${target}`);
  return row;
}

/** The code in the newest outbox message to `target` (the `log` transport keeps it whole). */
export async function codeFromOutbox(t: TestApp, target: string): Promise<string> {
  const { rows } = await new OutboxRepository(t.db).page(1, 100);
  const to = parseTarget(target)?.value;
  const row = rows.find((r) => r.target === to);
  const code = row && /\b(\d{6})\b/.exec(row.body)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${target}`);
  return code;
}
