import { uploadConfigLazyKey } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing/test-app';
import { instancesCases, startTwoInstances, type TwoInstances } from '../../testing/two-instances';

/**
 * Issue 32: app/config's lazy hashes and site settings are kept in memory, not read again (over
 * whole tables, for the hashes) on every call, yet a room, a model, the upload configuration or
 * the site's name saved on one instance changes what the other instance answers on its next call.
 */
describe.each(instancesCases)('lazy hashes on two instances ($name)', (c) => {
  let two: TwoInstances;
  let admin: { area: 'admin'; token: string };

  beforeAll(async () => {
    two = await startTwoInstances(c);
    admin = { area: 'admin', token: (await two.a.loginAdmin()).token };
  });
  afterAll(async () => {
    await two?.close();
  });

  const hashes = async (post: TestApp['post']) =>
    (await post<{ hashLazyValue: Record<string, string> }>('/api/app/config')).json.data
      .hashLazyValue;
  /** Asked of both instances twice, so each keeps what it answered. */
  const both = async () => {
    const [fromA, fromB] = [await hashes(two.a.post), await hashes(two.postB)];
    expect(await hashes(two.a.post)).toEqual(fromA);
    expect(await hashes(two.postB)).toEqual(fromB);
    expect(fromB).toEqual(fromA);
    return fromA;
  };
  const ok = async (url: string, body: unknown) => {
    const { json } = await two.a.post<{ id: number }>(url, body, admin);
    expect(json.code, json.msg).toBe(0);
    return json.data;
  };

  it('a room, a model and the upload configuration saved on one instance change the other’s hashes at once', async () => {
    const start = await both();
    const room = await ok('/admin/api/aigc/chat_room/save', { id: 0, title: 'Lobby' });
    const afterRoom = await both();
    expect(afterRoom.Rooms).not.toBe(start.Rooms);
    expect(afterRoom[uploadConfigLazyKey]).toBe(start[uploadConfigLazyKey]);

    // A model's title is part of what members see of a room.
    const provider = await ok('/admin/api/aigc/provider/save', {
      id: 0,
      name: 'Provider',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test',
    });
    const model = await ok('/admin/api/aigc/model/save', {
      id: 0,
      providerId: provider.id,
      name: 'model-a',
      title: 'Model A',
    });
    await ok('/admin/api/aigc/chat_room/save', { id: room.id, title: 'Lobby', modelId: model.id });
    const withModel = await both();
    await ok('/admin/api/aigc/model/save', {
      id: model.id,
      providerId: provider.id,
      name: 'model-a',
      title: 'Model A renamed',
    });
    expect((await both()).Rooms).not.toBe(withModel.Rooms);

    const { config } = (
      await two.a.post<{ config: { trashDays?: number } }>(
        '/admin/api/settings/upload/get',
        {},
        admin,
      )
    ).json.data;
    await ok('/admin/api/settings/upload/save', { config: { ...config, trashDays: 11 } });
    expect((await both())[uploadConfigLazyKey]).not.toBe(start[uploadConfigLazyKey]);
  });

  it('a site name saved on one instance are app/config’s on the other at once', async () => {
    const config = async (post: TestApp['post']) =>
      (await post<{ config: { siteName: string } }>('/api/app/config')).json.data.config;
    expect((await config(two.postB)).siteName).toBe((await config(two.a.post)).siteName);
    const current = (await two.a.post<Record<string, unknown>>('/admin/api/setting/get', {}, admin))
      .json.data;
    await ok('/admin/api/setting/save', { settings: { ...current, siteName: 'Renamed site' } });
    for (const post of [two.postB, two.a.post, two.postB]) {
      expect((await config(post)).siteName).toBe('Renamed site');
    }
  });
});
