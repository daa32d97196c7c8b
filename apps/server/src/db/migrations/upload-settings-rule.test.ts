import { hasRule } from '@atrium/shared/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesRepository } from '../../features/roles/index';
import { createTestDb, testDbKinds, type TestDb } from '../../testing/db';
import type { MigrationDb } from '../columns';
import { up } from './2026_11_26_1000_upload_settings_rule';

describe.each(testDbKinds)('the upload settings rule migration on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('keeps upload settings for every role that had them, and gives them to nobody else', async () => {
    const repo = new RolesRepository(t.db);
    const given: Record<string, string[]> = {
      settings: ['system/setting'],
      settingsBranch: ['system/setting*', 'member*'],
      system: ['system*'],
      everything: ['*'],
      rooms: ['aigc/chat_room*'],
      none: [],
    };
    const ids: Record<string, number> = {};
    for (const [name, rules] of Object.entries(given))
      ids[name] = (await repo.create({ name: `m-${name}`, rules, now: 1 })).id;

    const db = t.db as unknown as MigrationDb;
    await up(db);
    await up(db); // a second run changes nothing

    const after = async (name: string) => (await repo.findById(ids[name] ?? 0))?.rules ?? [];
    expect(await after('settings')).toEqual(['system/setting', 'system/upload*']);
    expect(await after('settingsBranch')).toEqual(['system/setting*', 'member*', 'system/upload*']);
    expect(await after('system')).toEqual(['system*']);
    expect(await after('everything')).toEqual(['*']);
    expect(await after('rooms')).toEqual(['aigc/chat_room*']);
    expect(await after('none')).toEqual([]);
    for (const name of Object.keys(given)) {
      const before = given[name] ?? [];
      const now = await after(name);
      // Nothing else widened or narrowed.
      for (const probe of ['system/setting', 'member/list', 'aigc/chat_room/save', 'data/x'])
        expect(hasRule(now, probe), `${name}: ${probe}`).toBe(hasRule(before, probe));
      expect(hasRule(now, 'system/upload/save')).toBe(hasRule(before, 'system/setting'));
    }
  });
});
