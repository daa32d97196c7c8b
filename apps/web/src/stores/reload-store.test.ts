import { beforeEach, describe, expect, it } from 'vitest';
import { useReloadStore } from './reload-store';

beforeEach(() =>
  useReloadStore.setState({ hashPC: '', hashLazyValue: null, hashUpdateDialog: false }),
);

describe('reload store (SPEC 4.3)', () => {
  it('only stores the first hash', () => {
    expect(useReloadStore.getState().receiveHashPC('v1')).toBe(false);
    expect(useReloadStore.getState().hashPC).toBe('v1');
    expect(useReloadStore.getState().receiveHashPC('v1')).toBe(false);
  });

  it('asks on a different hash, never twice while the prompt is open', () => {
    const { receiveHashPC } = useReloadStore.getState();
    receiveHashPC('v1');
    expect(receiveHashPC('v2')).toBe(true);
    expect(useReloadStore.getState().hashUpdateDialog).toBe(true);
    expect(receiveHashPC('v3')).toBe(false);
  });

  it('after cancel, asks again on a later change only', () => {
    const { receiveHashPC, closeUpdateDialog } = useReloadStore.getState();
    receiveHashPC('v1');
    receiveHashPC('v2');
    closeUpdateDialog();
    expect(receiveHashPC('v2')).toBe(false);
    expect(receiveHashPC('v3')).toBe(true);
  });

  it('reports the lazy sets whose hash changed; the first map is only stored', () => {
    const { receiveHashLazyValue } = useReloadStore.getState();
    expect(receiveHashLazyValue({ Rooms: 'a', Models: 'x' })).toEqual([]);
    expect(receiveHashLazyValue({ Rooms: 'b', Models: 'x', Tags: 't' })).toEqual(['Rooms', 'Tags']);
    expect(useReloadStore.getState().hashLazyValue).toEqual({ Rooms: 'b', Models: 'x', Tags: 't' });
  });
});
