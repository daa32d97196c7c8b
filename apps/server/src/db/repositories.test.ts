import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminsRepository } from '../features/admins/admins.repository';
import { RolesRepository } from '../features/roles/index';
import { SessionsRepository } from '../features/auth/sessions.repository';
import { MembersRepository } from '../features/members/members.repository';
import { SettingsRepository } from './settings.repository';
import { createTestDb, testDbKinds, type TestDb } from '../testing/db';
import { migrateToLatest } from './migrate';

// Beyond 2^31 on purpose: timestamps are bigint columns and must come back as plain numbers.
const T = Date.UTC(2026, 10, 21, 9, 0, 0);

describe.each(testDbKinds)('repositories on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('migrating again changes nothing', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  describe('admins and roles', () => {
    it('creates an admin and finds it by id and username, with flags as booleans', async () => {
      const repo = new AdminsRepository(t.db);
      const created = await repo.create({
        username: 'alice',
        passwordHash: 'h1',
        now: T,
        isFounder: true,
      });
      expect(created).toEqual({
        id: expect.any(Number),
        username: 'alice',
        passwordHash: 'h1',
        nickname: '',
        avatar: '',
        isFounder: true,
        disabled: false,
        createdAt: T,
        updatedAt: T,
      });
      expect(await repo.findById(created.id)).toEqual(created);
      expect(await repo.findByUsername('alice')).toEqual(created);
      expect(await repo.hasFounder()).toBe(true);
    });

    it('answers undefined on a miss', async () => {
      const repo = new AdminsRepository(t.db);
      expect(await repo.findById(999_999)).toBeUndefined();
      expect(await repo.findByUsername('nobody')).toBeUndefined();
      expect(await new RolesRepository(t.db).findByName('nobody')).toBeUndefined();
      expect(await new MembersRepository(t.db).findByLogin('nobody')).toBeUndefined();
    });

    it('refuses a second admin with the same username', async () => {
      const repo = new AdminsRepository(t.db);
      await repo.create({ username: 'bob', passwordHash: 'h', now: T });
      await expect(repo.create({ username: 'bob', passwordHash: 'h', now: T })).rejects.toThrow();
    });

    it('updates the disabled flag and the password hash', async () => {
      const repo = new AdminsRepository(t.db);
      const admin = await repo.create({ username: 'carol', passwordHash: 'old', now: T });
      await repo.setDisabled(admin.id, true, T + 1);
      await repo.setPasswordHash(admin.id, 'new', T + 2);
      expect(await repo.findById(admin.id)).toMatchObject({
        disabled: true,
        passwordHash: 'new',
        updatedAt: T + 2,
      });
    });

    it('lists the rules of every role an admin holds', async () => {
      const admins = new AdminsRepository(t.db);
      const roles = new RolesRepository(t.db);
      const admin = await admins.create({ username: 'dave', passwordHash: 'h', now: T });
      const editors = await roles.create({ name: 'editors', rules: ['aigc/*', 'member'], now: T });
      const viewers = await roles.create({
        name: 'viewers',
        rules: ['data/file_manager/view'],
        now: T,
      });
      await admins.addRole(admin.id, editors.id);
      await admins.addRole(admin.id, viewers.id);
      expect(editors.rules).toEqual(['aigc/*', 'member']);
      expect(await roles.findByName('editors')).toEqual(editors);
      expect(await roles.findById(viewers.id)).toEqual(viewers);
      expect(await admins.roleRules(admin.id)).toEqual([
        JSON.stringify(['aigc/*', 'member']),
        JSON.stringify(['data/file_manager/view']),
      ]);
    });
  });

  describe('members', () => {
    it('finds a member by username, e-mail (any case) or phone', async () => {
      const repo = new MembersRepository(t.db);
      const m = await repo.create({
        username: 'erin',
        email: 'Erin@Example.com',
        phone: '+8613800000000',
        passwordHash: 'h',
        now: T,
      });
      expect(m.email).toBe('erin@example.com');
      expect((await repo.findByLogin('erin'))?.id).toBe(m.id);
      expect((await repo.findByLogin('ERIN@example.com'))?.id).toBe(m.id);
      expect((await repo.findByLogin('+8613800000000'))?.id).toBe(m.id);
      expect(await repo.findById(m.id)).toEqual(m);
    });

    it('prefers the member whose username matches over another whose phone matches', async () => {
      const repo = new MembersRepository(t.db);
      const byPhone = await repo.create({
        username: 'frank',
        phone: '12345',
        passwordHash: 'h',
        now: T,
      });
      const byName = await repo.create({ username: '12345', passwordHash: 'h', now: T });
      expect((await repo.findByLogin('12345'))?.id).toBe(byName.id);
      expect(byPhone.id).not.toBe(byName.id);
    });

    it('allows many members without e-mail or phone but no duplicate e-mail', async () => {
      const repo = new MembersRepository(t.db);
      await repo.create({ username: 'g1', passwordHash: 'h', now: T });
      await repo.create({ username: 'g2', passwordHash: 'h', now: T });
      await repo.create({ username: 'g3', email: 'same@example.com', passwordHash: 'h', now: T });
      await expect(
        repo.create({ username: 'g4', email: 'same@example.com', passwordHash: 'h', now: T }),
      ).rejects.toThrow();
    });
  });

  describe('sessions', () => {
    const base = {
      subjectType: 'admin' as const,
      subjectId: 1,
      now: T,
      expiresAt: T + 3_600_000,
      ip: '127.0.0.1',
      userAgent: 'ua',
    };

    it('creates a session and finds it by its token hash within its subject type', async () => {
      const repo = new SessionsRepository(t.db);
      const s = await repo.create({ ...base, tokenHash: 'hash-a' });
      expect(s).toMatchObject({
        tokenHash: 'hash-a',
        prevTokenHash: null,
        rotatedAt: T,
        lastSeenAt: T,
        revokedAt: null,
      });
      expect(await repo.findByTokenHash('admin', 'hash-a')).toEqual(s);
      expect(await repo.findByTokenHash('member', 'hash-a')).toBeUndefined();
    });

    it('rotates only when the given hash is still current, keeping the previous one findable', async () => {
      const repo = new SessionsRepository(t.db);
      const s = await repo.create({ ...base, tokenHash: 'hash-b' });
      expect(
        await repo.rotate(s.id, 'hash-b', { tokenHash: 'hash-c', now: T + 5, expiresAt: T + 10 }),
      ).toBe(true);
      expect(
        await repo.rotate(s.id, 'hash-b', { tokenHash: 'hash-d', now: T + 6, expiresAt: T + 10 }),
      ).toBe(false);
      const found = await repo.findByTokenHash('admin', 'hash-b');
      expect(found).toMatchObject({
        id: s.id,
        tokenHash: 'hash-c',
        prevTokenHash: 'hash-b',
        rotatedAt: T + 5,
      });
      expect((await repo.findByTokenHash('admin', 'hash-c'))?.id).toBe(s.id);
    });

    it('touches, revokes and sweeps', async () => {
      const repo = new SessionsRepository(t.db);
      const live = await repo.create({ ...base, subjectId: 7, tokenHash: 'hash-e' });
      const other = await repo.create({ ...base, subjectId: 7, tokenHash: 'hash-f' });
      await repo.touch(live.id, T + 60_000, T + 99_000);
      expect(await repo.findByTokenHash('admin', 'hash-e')).toMatchObject({
        lastSeenAt: T + 60_000,
        expiresAt: T + 99_000,
      });
      await repo.revoke(other.id, T + 1);
      expect((await repo.findByTokenHash('admin', 'hash-f'))?.revokedAt).toBe(T + 1);
      await repo.revokeAllFor('admin', 7, T + 2);
      expect((await repo.findByTokenHash('admin', 'hash-e'))?.revokedAt).toBe(T + 2);
      expect(await repo.deleteExpired(T)).toBeGreaterThanOrEqual(2);
      expect(await repo.findByTokenHash('admin', 'hash-e')).toBeUndefined();
    });
  });

  describe('settings', () => {
    it('stores JSON values, overwrites them and deletes them', async () => {
      const repo = new SettingsRepository(t.db);
      expect(await repo.get('siteName')).toBeUndefined();
      await repo.set('siteName', 'My Site', T);
      await repo.set('limits', { perDay: 5, tags: ['a'] }, T);
      expect(await repo.get('siteName')).toBe('My Site');
      await repo.set('siteName', 'Renamed', T + 1);
      expect(await repo.get('siteName')).toBe('Renamed');
      expect(await repo.get('limits')).toEqual({ perDay: 5, tags: ['a'] });
      await repo.delete('siteName');
      expect(await repo.get('siteName')).toBeUndefined();
    });
  });
});
