import { randomBytes } from 'node:crypto';
import { Code } from '@atrium/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { render } from '@atrium/shared/messages/catalogue';
import { ApiError } from './envelope';
import { limitSpecs } from './limits';
import { RateLimits, waitOf } from './rate-limits';

const redisUrl = process.env.TEST_REDIS_URL;
const stores = redisUrl ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(stores)('rate limits in %s', (store) => {
  const made: RateLimits[] = [];
  const fresh = () => {
    const prefix = `atrium-test-${randomBytes(4).toString('hex')}:`;
    const limits =
      store === 'redis' && redisUrl
        ? new RateLimits({ kind: 'redis', url: redisUrl, prefix })
        : new RateLimits({ kind: 'memory' });
    made.push(limits);
    return limits;
  };
  afterAll(async () => {
    await Promise.all(made.map((l) => l.close()));
  });

  const refusalOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('lets exactly the limit through of 100 parallel attempts, and refuses the rest with 1004', async () => {
    const limits = fresh();
    const { points } = limitSpecs.passwordChangeFailures;
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => refusalOf(limits.consume('passwordChangeFailures', 'k'))),
    );
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(points);
    const refused = outcomes.filter((o): o is ApiError => o instanceof ApiError);
    expect(refused).toHaveLength(100 - points);
    expect(refused[0]).toMatchObject({
      code: Code.TooManyRequests,
      ref: { key: 'limits.wrongPasswords' },
      data: { wait: 900 },
    });
    // Other keys have windows of their own.
    await expect(limits.consume('passwordChangeFailures', 'other')).resolves.toMatchObject({
      count: 1,
    });
  });

  it('takes a lower limit from the caller (an admin setting) and names it', async () => {
    const limits = fresh();
    await limits.consume('chatMessagesPerMember', '7', 2);
    await limits.consume('chatMessagesPerMember', '7', 2);
    await expect(limits.consume('chatMessagesPerMember', '7', 2)).rejects.toMatchObject({
      code: Code.TooManyRequests,
      ref: { key: 'limits.chatMessages', params: { limit: 2 } },
    });
  });

  it('gives back refunded attempts, never below zero, and counts without refusing', async () => {
    const limits = fresh();
    await limits.count('signInFailuresPerAccount', 'a');
    await limits.count('signInFailuresPerAccount', 'a');
    await limits.refund('signInFailuresPerAccount', 'a');
    expect((await limits.peek('signInFailuresPerAccount', 'a')).count).toBe(1);
    await limits.refund('signInFailuresPerAccount', 'a', 5);
    await limits.refund('signInFailuresPerAccount', 'a');
    await limits.refund('signInFailuresPerAccount', 'never-counted');
    expect((await limits.peek('signInFailuresPerAccount', 'a')).count).toBe(0);
    expect((await limits.peek('signInFailuresPerAccount', 'never-counted')).count).toBe(0);
    expect((await limits.count('signInFailuresPerAccount', 'never-counted')).count).toBe(1);
  });

  it('consumeAll gives back what it counted when a later limit refuses', async () => {
    const limits = fresh();
    await limits.consume('verifyResendPerTarget', 'email:a@b.c');
    await expect(
      limits.consumeAll([
        ['verifyDailyPerAddress', '10.0.0.1'],
        ['verifyResendPerTarget', 'email:a@b.c'],
      ]),
    ).rejects.toMatchObject({ ref: { key: 'limits.codeResend' } });
    expect((await limits.peek('verifyDailyPerAddress', '10.0.0.1')).count).toBe(0);
    await limits.reset('verifyResendPerTarget', 'email:a@b.c');
    await expect(
      limits.consumeAll([
        ['verifyDailyPerAddress', '10.0.0.1'],
        ['verifyResendPerTarget', 'email:a@b.c'],
      ]),
    ).resolves.toHaveLength(2);
  });
});

describe.runIf(redisUrl)('rate limits over Redis', () => {
  it('are one count for every instance sharing the prefix', async () => {
    const prefix = `atrium-test-${randomBytes(4).toString('hex')}:`;
    const url = redisUrl ?? '';
    const a = new RateLimits({ kind: 'redis', url, prefix });
    const b = new RateLimits({ kind: 'redis', url, prefix });
    const elsewhere = new RateLimits({ kind: 'redis', url, prefix: `${prefix}other:` });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).consume('captchaImagesPerAddress', '10.1.1.1').then(
            () => true,
            () => false,
          ),
        ),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(limitSpecs.captchaImagesPerAddress.points);
      await expect(elsewhere.consume('captchaImagesPerAddress', '10.1.1.1')).resolves.toMatchObject(
        { count: 1 },
      );
    } finally {
      await Promise.all([a.close(), b.close(), elsewhere.close()]);
    }
  });
});

describe('waitOf', () => {
  it('reads as seconds under a minute and as whole minutes above', () => {
    const read = (ms: number, lang: 'en' | 'zh-CN' = 'en') => {
      const wait = waitOf(ms);
      return { seconds: wait.seconds, text: render(lang, wait.text) };
    };
    expect(read(1)).toEqual({ seconds: 1, text: '1 second' });
    expect(read(40_000)).toEqual({ seconds: 40, text: '40 seconds' });
    expect(read(60_000)).toEqual({ seconds: 60, text: '1 minute' });
    expect(read(14 * 60_000 + 1)).toEqual({ seconds: 841, text: '15 minutes' });
    expect(read(14 * 60_000 + 1, 'zh-CN')).toEqual({ seconds: 841, text: '15 分钟' });
    const refusal = render('zh-CN', limitSpecs.passwordChangeFailures.message(waitOf(900_000)));
    expect(refusal).toBe('密码错误次数过多，请 15 分钟后再试');
  });
});
