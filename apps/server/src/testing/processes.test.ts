import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRunInstances, createDeployment, postJson, type Deployment } from './processes';

describe.runIf(canRunInstances)('the multi-instance harness', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await createDeployment();
  });
  afterAll(async () => {
    await deployment.cleanup();
  });

  it('runs two real instances on one database: an admin signed in on one is signed in on the other', async () => {
    const a = await deployment.start();
    const b = await deployment.start();
    expect(a.pid).not.toBe(b.pid);
    const login = await postJson<{ token: string }>(a, '/admin/api/auth/login', {
      username: 'admin',
      password: deployment.env.ATRIUM_ADMIN_PASSWORD,
    });
    expect(login.json.code).toBe(0);
    const onB = await postJson<{ user: { username: string } }>(
      b,
      '/admin/api/app/config',
      {},
      {
        'admin-api-token': login.json.data.token,
        cookie: 'XSRF-TOKEN=x',
        'x-xsrf-token': 'x',
      },
    );
    expect(onB.json, onB.json.msg).toMatchObject({
      code: 0,
      data: { user: { username: 'admin' } },
    });
    await a.kill();
    expect(await a.exited).toBeNull();
    expect((await postJson(b, '/api/app/config')).json.code).toBe(0);
  });
});
