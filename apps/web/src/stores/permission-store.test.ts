import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { can, checkPermission, usePermissionStore } from './permission-store';

beforeEach(() => usePermissionStore.getState().reset());
afterEach(() => vi.useRealTimers());

describe('permission store', () => {
  it('answers checks with the shared matcher once rules are set', async () => {
    usePermissionStore.getState().setRules(['system/*', 'data/file_manager/view']);
    expect(can('system/role')).toBe(true);
    expect(can('member')).toBe(false);
    expect(can(['member', 'data/file_manager/view'])).toBe(true);
    await expect(checkPermission('system/admin')).resolves.toBe(true);
  });

  it('waits, polling every 100 ms, until the rules are initialised', async () => {
    vi.useFakeTimers();
    let answer: boolean | undefined;
    void checkPermission('system/admin').then((value) => (answer = value));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answer).toBeUndefined();
    usePermissionStore.getState().setRules(['system/admin']);
    await vi.advanceTimersByTimeAsync(99);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(true);
  });

  it('refuses what the rules do not hold, and an empty rule list refuses everything', async () => {
    usePermissionStore.getState().setRules([]);
    await expect(checkPermission('dashboard')).resolves.toBe(false);
  });

  it('stops waiting when aborted', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const pending = checkPermission('x', controller.signal);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toBe(false);
  });
});
