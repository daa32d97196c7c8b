import { expect } from 'vitest';
import { postJson, type ServerProcess } from './testing/processes';

/** What the first-start tests read from real server processes (`startup.*.test.ts`). */
export const BANNER = 'Admin account created';
export const SIMULTANEOUS = 4;

export const countBanners = (servers: { output(): string }[]) =>
  servers.filter((s) => s.output().includes(BANNER)).length;

export async function adminCount(server: ServerProcess, password: string): Promise<number> {
  const login = await postJson<{ token: string }>(server, '/admin/api/auth/login', {
    username: 'admin',
    password,
  });
  expect(login.json.code, login.json.msg).toBe(0);
  const page = await postJson<{ total: number }>(
    server,
    '/admin/api/admins/list',
    { page: 1, pageSize: 50 },
    { 'admin-api-token': login.json.data.token, cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' },
  );
  expect(page.json.code, page.json.msg).toBe(0);
  return page.json.data.total;
}
