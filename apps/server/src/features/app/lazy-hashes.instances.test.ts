import { uploadConfigLazyKey } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing/test-app';
import { instancesCases, startTwoInstances, type TwoInstances } from '../../testing/two-instances';

/**
 * Issue 32: app/config's lazy hashes are kept in memory, not recomputed over whole tables on
 * every call, yet a room, a model or the upload configuration saved on one instance changes the
 * hash the other instance answers with on its next call.
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
});
