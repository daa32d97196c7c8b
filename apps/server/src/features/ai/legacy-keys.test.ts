import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../security/secret-box';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { aiDb } from './ai.tables';
import { ProvidersRepository } from './providers.repository';

const secret = 'test-secret-test-secret';

/** How provider keys were sealed before one box served every secret (the stored bytes). */
function sealTheOldWay(plain: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'atrium', 'ai-provider-api-key', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

describe.each(testDbKinds)('provider keys sealed the old way (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('are sealed again with the one secret box, readable, once', async () => {
    const repo = new ProvidersRepository(aiDb(t.db));
    const plain = 'sk-legacy-0123456789abcdef';
    const id = await repo.insertProvider({
      name: 'Old',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeySealed: sealTheOldWay(plain),
      keyHint: '••••cdef',
      createdAt: 1,
      updatedAt: 1,
    });
    const providers = t.app.features.providers;

    expect(await providers.resealLegacyKeys(secret)).toBe(1);
    const stored = (await repo.listProviders()).find((p) => p.id === id)?.apiKeySealed ?? '';
    expect(stored.startsWith('v1.')).toBe(true);
    expect(createSecretBox(secret, 'ai-provider-api-key').open(stored)).toBe(plain);
    expect(await providers.resealLegacyKeys(secret)).toBe(0);
  });

  it('leave a value sealed with another secret as it was', async () => {
    const repo = new ProvidersRepository(aiDb(t.db));
    // One bit of the authentication tag changed: no secret opens it. (Changing the last base64
    // character is not enough: its low bits may be padding that decoding drops.)
    const bytes = Buffer.from(sealTheOldWay('sk-x').slice('v1:'.length), 'base64url');
    bytes[12] = (bytes[12] ?? 0) ^ 1;
    const foreign = `v1:${bytes.toString('base64url')}`;
    const id = await repo.insertProvider({
      name: 'Damaged',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeySealed: foreign,
      keyHint: '••••',
      createdAt: 1,
      updatedAt: 1,
    });
    expect(await t.app.features.providers.resealLegacyKeys(secret)).toBe(0);
    expect((await repo.listProviders()).find((p) => p.id === id)?.apiKeySealed).toBe(foreign);
  });
});
