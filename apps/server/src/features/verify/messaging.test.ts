import { Code } from '@atrium/shared';
import type { MessagingView } from '@atrium/shared/contract/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startSmtpServer, startWebhook } from './verify.testing';

const PASSWORD = 'smtp-pass-Secret9';
const SECRET = 'hook-secret-0123456789';

describe.each(testDbKinds)(
  'stored messaging secrets never follow a changed address on %s',
  (kind) => {
    let t: TestApp;
    let admin: { area: 'admin'; token: string };

    const save = (patch: { smtp?: Record<string, unknown>; sms?: Record<string, unknown> }) =>
      t.post<MessagingView>(
        '/admin/api/system/message/save',
        {
          emailTransport: patch.smtp ? 'smtp' : 'log',
          smsTransport: patch.sms ? 'webhook' : 'log',
          smtp: { host: '', port: 587, security: 'starttls', user: '', from: '', ...patch.smtp },
          sms: { url: '', template: 'code {code}', ...patch.sms },
        },
        admin,
      );
    const sendTest = (target: string) =>
      t.post('/admin/api/system/message/test', { target }, admin);
    const storedValue = async () =>
      (
        await t.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'messaging')
          .executeTakeFirstOrThrow()
      ).value;

    beforeAll(async () => {
      t = await createTestApp({ db: kind });
      admin = { area: 'admin', token: (await t.loginAdmin()).token };
    });
    afterAll(async () => {
      await t.cleanup();
    });

    describe('SMTP password', () => {
      /** Where the password was saved for. */
      let a: Awaited<ReturnType<typeof startSmtpServer>>;
      /** Another server that would take the same login: it must never be offered it. */
      let b: Awaited<ReturnType<typeof startSmtpServer>>;
      const server = (port: number, more: Record<string, unknown> = {}) => ({
        host: '127.0.0.1',
        port,
        security: 'none',
        user: 'mailer',
        from: 'no-reply@atrium.test',
        ...more,
      });

      beforeAll(async () => {
        a = await startSmtpServer({ user: 'mailer', pass: PASSWORD });
        b = await startSmtpServer({ user: 'mailer', pass: PASSWORD });
      });
      afterAll(async () => {
        await a.close();
        await b.close();
      });
      beforeEach(async () => {
        expect((await save({ smtp: server(a.port, { password: PASSWORD }) })).json.code).toBe(0);
      });

      it.each([
        ['another port', () => server(b.port)],
        ['another host', () => server(a.port, { host: 'localhost' })],
        ['another encryption', () => server(a.port, { security: 'starttls' })],
        ['another user', () => server(a.port, { user: 'someone-else' })],
      ])(
        'saving %s without the password is refused; mail still goes to the first',
        async (_n, smtp) => {
          const { json } = await save({ smtp: smtp() });
          expect(json).toEqual({
            code: Code.Failure,
            msg: '主机、端口、加密方式或用户名已更改，请重新输入 SMTP 密码',
            data: { error: 'account.smtpPasswordAgain', params: {}, field: 'smtp.password' },
          });
          const view = await t.post<MessagingView>('/admin/api/system/message/get', {}, admin);
          expect(view.json.data.smtp).toMatchObject({
            port: a.port,
            user: 'mailer',
            hasPassword: true,
          });

          expect((await sendTest('ops@example.com')).json.code).toBe(0);
          expect(a.mails.at(-1)?.to).toEqual(['ops@example.com']);
          expect(b.logins).toEqual([]);
        },
      );

      it('the new server gets the password only when it is typed in for it', async () => {
        // Without a user there is no login to offer: the password goes, the mail is refused.
        const anonymous = await save({ smtp: server(b.port, { user: '' }) });
        expect(anonymous.json.data.smtp).toMatchObject({ port: b.port, hasPassword: false });
        expect((await sendTest('ops@example.com')).json).toMatchObject({
          msg: expect.stringMatching(/^发送失败：/),
          data: { error: 'account.sendFailed' },
        });
        expect(b.logins).toEqual([]);
        expect(b.mails).toEqual([]);

        // Back to the user at the first server: the dropped password stays dropped.
        const back = await save({ smtp: server(a.port) });
        expect(back.json.data.smtp).toMatchObject({ port: a.port, hasPassword: false });

        const typed = await save({ smtp: server(b.port, { password: PASSWORD }) });
        expect(typed.json.data.smtp).toMatchObject({ port: b.port, hasPassword: true });
        expect((await sendTest('ops@example.com')).json.code).toBe(0);
        expect(b.logins).toEqual([{ user: 'mailer', pass: PASSWORD }]);
      });

      it('the same server written differently keeps the password', async () => {
        const same = await save({ smtp: server(a.port, { from: 'Other <other@atrium.test>' }) });
        expect(same.json.data.smtp).toMatchObject({ hasPassword: true });
        const logins = a.logins.length;
        expect((await sendTest('ops@example.com')).json.code).toBe(0);
        expect(a.logins.slice(logins)).toEqual([{ user: 'mailer', pass: PASSWORD }]);
      });
    });

    describe('SMS webhook secret', () => {
      let a: Awaited<ReturnType<typeof startWebhook>>;
      let b: Awaited<ReturnType<typeof startWebhook>>;
      const phone = '+8613900001111';

      beforeAll(async () => {
        a = await startWebhook();
        b = await startWebhook();
      });
      afterAll(async () => {
        await a.close();
        await b.close();
      });
      beforeEach(async () => {
        expect((await save({ sms: { url: a.url, secret: SECRET } })).json.code).toBe(0);
      });

      it('is stored sealed, never shown, and sent as a bearer token', async () => {
        const view = await t.post<MessagingView>('/admin/api/system/message/get', {}, admin);
        expect(view.json.data.sms).toEqual({
          url: a.url,
          template: 'code {code}',
          hasSecret: true,
        });
        expect(JSON.stringify(view.json)).not.toContain(SECRET);
        expect(await storedValue()).not.toContain(SECRET);

        expect((await sendTest(phone)).json.code).toBe(0);
        expect(a.calls.at(-1)).toMatchObject({
          authorization: `Bearer ${SECRET}`,
          body: { to: phone },
        });
      });

      it('saving another URL without the secret is refused; messages still go to the first', async () => {
        for (const url of [
          b.url,
          a.url.replace('/sms', '/other'),
          a.url.replace('127.0.0.1', 'localhost'),
        ]) {
          const { json } = await save({ sms: { url } });
          expect(json, url).toEqual({
            code: Code.Failure,
            msg: 'Webhook 地址已更改，请重新输入短信密钥，或将其删除',
            data: { error: 'account.smsSecretAgain', params: {}, field: 'sms.secret' },
          });
        }
        expect((await sendTest(phone)).json.code).toBe(0);
        expect(a.calls.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
        expect(b.calls).toEqual([]);
      });

      it('a new URL gets no secret unless one is typed in for it', async () => {
        const removed = await save({ sms: { url: b.url, secret: '' } });
        expect(removed.json.data.sms).toMatchObject({ url: b.url, hasSecret: false });
        expect((await sendTest(phone)).json.code).toBe(0);
        expect(b.calls).toHaveLength(1);
        expect(b.calls[0]?.authorization).toBeUndefined();

        const typed = await save({ sms: { url: b.url, secret: 'typed-for-b' } });
        expect(typed.json.data.sms).toMatchObject({ hasSecret: true });
        expect((await sendTest(phone)).json.code).toBe(0);
        expect(b.calls.at(-1)?.authorization).toBe('Bearer typed-for-b');
        expect(JSON.stringify(b.calls)).not.toContain(SECRET);
      });

      it('the same URL written differently keeps the secret; an emptied URL drops it', async () => {
        const same = await save({ sms: { url: `${a.url.replace('http://', 'HTTP://')}/` } });
        expect(same.json.data.sms).toMatchObject({ hasSecret: true });
        expect((await sendTest(phone)).json.code).toBe(0);
        expect(a.calls.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);

        expect((await save({})).json.data.sms).toMatchObject({ url: '', hasSecret: false });
        expect((await save({ sms: { url: a.url } })).json.data.sms).toMatchObject({
          hasSecret: false,
        });
      });
    });
  },
);
