import { Code } from '@atrium/shared';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canRunInstances,
  createDeployment,
  multiInstanceEnv,
  postJson,
  type Deployment,
} from './testing/processes';
import { adminCount, countBanners, SIMULTANEOUS } from './startup.testing';

/**
 * DESIGN 2: instances started together on one empty database all come up with one first admin,
 * an instance with another ATRIUM_SECRET refuses to start, and REDIS_PREFIX keeps deployments
 * sharing one Redis apart. Real server processes, as a load balancer would see them.
 */

describe.runIf(canRunInstances)('instances on PostgreSQL and Redis', () => {
  const deployments: Deployment[] = [];
  const deploy = async (shared: Record<string, string> = {}) => {
    const deployment = await createDeployment(shared);
    deployments.push(deployment);
    return deployment;
  };
  afterEach(async () => {
    await Promise.all(deployments.splice(0).map((d) => d.cleanup()));
  });

  it(`${SIMULTANEOUS} first starts at once on an empty database all listen, with one admin and one banner`, async () => {
    const deployment = await deploy();
    const servers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, () => deployment.start()),
    );
    expect(new Set(servers.map((s) => s.port)).size).toBe(SIMULTANEOUS);
    expect(countBanners(servers)).toBe(1);
    for (const server of servers) {
      expect(await adminCount(server, deployment.env.ATRIUM_ADMIN_PASSWORD ?? '')).toBe(1);
    }
  }, 90_000);

  it('an instance with another ATRIUM_SECRET refuses to start and says what to set', async () => {
    const deployment = await deploy();
    await deployment.start();
    const refused = deployment.start({ ATRIUM_SECRET: 'a-different-secret-of-this-deployment' });
    await expect(refused).rejects.toThrow(/exited \(1\) before listening/);
    await expect(refused).rejects.toThrow(/ATRIUM_SECRET/);
    await expect(refused).rejects.toThrow(/same ATRIUM_SECRET/);

    // Without ATRIUM_SECRET the instance generates a secret in its own data folder.
    const unset = deployment.start({ ATRIUM_SECRET: '' });
    await expect(unset).rejects.toThrow(/No ATRIUM_SECRET is set/);
    await expect(unset).rejects.toThrow(/instance-\d+\/secret/);

    const same = await deployment.start();
    expect((await postJson(same, '/api/app/config')).json.code).toBe(0);
  }, 60_000);

  it('deployments with different REDIS_PREFIX on one Redis keep their counters apart', async () => {
    const first = await deploy();
    const second = await deploy();
    const prefixes = [first.env.REDIS_PREFIX, second.env.REDIS_PREFIX];
    expect(prefixes[0]).not.toBe(prefixes[1]);
    const [a1, a2, b] = await Promise.all([first.start(), first.start(), second.start()]);

    // 30 captcha pictures a minute per address; the 31st from the same address is refused
    // on every instance of the deployment, since they count in one Redis.
    for (let i = 0; i < 30; i++) {
      expect((await postJson(a1, '/api/captcha/image')).json.code).toBe(0);
    }
    expect((await postJson(a2, '/api/captcha/image')).json.code).toBe(Code.TooManyRequests);
    expect((await postJson(b, '/api/captcha/image')).json.code).toBe(0);

    const redis = new Redis(multiInstanceEnv.redisUrl ?? '');
    try {
      for (const prefix of prefixes) {
        expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
      }
    } finally {
      await redis.quit();
    }
  }, 60_000);
});
