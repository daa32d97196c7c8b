import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setLanguage } from '@/lib/i18n';
import { useConfigStore } from './config-store';
import { applyLazyHashes, createLazyStore, defineLazy, type LazyStore } from './lazy-store';
import { useReloadStore } from './reload-store';

let client: QueryClient;
let store: LazyStore;
let calls: number;
let version: number;

function registerRooms() {
  store.getState().register('Rooms', {
    queryKey: ['rooms'],
    queryFn: async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      return [`room-v${version}`];
    },
  });
}

/** A component showing the "Rooms" set through `defineLazy`, counting the loads in `calls`. */
function roomsComponent() {
  const rooms = defineLazy(
    'Rooms',
    {
      queryKey: ['rooms'],
      queryFn: async () => {
        calls += 1;
        return [`room-v${version}`];
      },
    },
    store,
    client,
  );
  return function Rooms() {
    const { data, init } = rooms.useValue();
    return <p>{init ? data?.join(',') : 'loading'}</p>;
  };
}

beforeEach(() => {
  setLanguage('en');
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  store = createLazyStore(client);
  calls = 0;
  version = 1;
  useConfigStore.setState({ lazy: {}, hashLazyValue: {} });
  useReloadStore.setState({ hashLazyValue: null });
});
afterEach(cleanup);

describe('lazy data sets (SPEC 4.2)', () => {
  it('refuses to load a set that was never registered', async () => {
    await expect(store.getState().load('Rooms')).rejects.toThrow(
      'LazyStore.name=Rooms not registered',
    );
    await expect(store.getState().update('Rooms')).rejects.toThrow(
      'LazyStore.name=Rooms not registered',
    );
  });

  it('goes loading -> loaded, sets <name>_init and loads only once', async () => {
    registerRooms();
    expect(store.getState().status.Rooms).toBeUndefined();
    const first = store.getState().load('Rooms');
    const second = store.getState().load('Rooms');
    expect(store.getState().status.Rooms).toBe('loading');
    expect(store.getState().flags.Rooms_init).toBeUndefined();
    await expect(first).resolves.toEqual(['room-v1']);
    await expect(second).resolves.toEqual(['room-v1']);
    expect(store.getState().status.Rooms).toBe('loaded');
    expect(store.getState().flags.Rooms_init).toBe(true);
    await store.getState().load('Rooms');
    expect(calls).toBe(1);
    expect(client.getQueryData(['rooms'])).toEqual(['room-v1']);
    expect(useConfigStore.getState().lazy.Rooms).toEqual(['room-v1']);
  });

  it('update reloads a loaded set; clear marks it not initialised', async () => {
    registerRooms();
    await store.getState().load('Rooms');
    version = 2;
    await expect(store.getState().update('Rooms')).resolves.toEqual(['room-v2']);
    expect(calls).toBe(2);
    store.getState().clear('Rooms');
    expect(store.getState().flags.Rooms_init).toBe(false);
    expect(store.getState().status.Rooms).toBeUndefined();
    expect(useConfigStore.getState().lazy.Rooms).toBeUndefined();
    await store.getState().load('Rooms');
    expect(calls).toBe(3);
  });

  it('goes back to not loaded when the first load fails', async () => {
    store.getState().register('Broken', {
      queryKey: ['broken'],
      queryFn: async () => {
        throw new Error('down');
      },
    });
    await expect(store.getState().load('Broken')).rejects.toThrow('down');
    expect(store.getState().status.Broken).toBeUndefined();
    expect(store.getState().flags.Broken_init).toBeUndefined();
  });

  it('refreshes loaded sets whose hash changed; the first map is only stored', async () => {
    registerRooms();
    store.getState().register('Models', { queryKey: ['models'], queryFn: async () => ['m'] });
    await store.getState().load('Rooms');
    await applyLazyHashes({ Rooms: 'h1', Models: 'm1' }, store);
    expect(calls).toBe(1);
    version = 2;
    await applyLazyHashes({ Rooms: 'h1', Models: 'm1' }, store);
    expect(calls).toBe(1);
    await applyLazyHashes({ Rooms: 'h2', Models: 'm2' }, store);
    expect(calls).toBe(2);
    expect(client.getQueryData(['rooms'])).toEqual(['room-v2']);
    // Models never loaded: nothing to refresh until someone asks for it.
    expect(store.getState().status.Models).toBeUndefined();
    expect(useConfigStore.getState().hashLazyValue).toEqual({ Rooms: 'h2', Models: 'm2' });
  });

  it('gives components the data, loading it on first use', async () => {
    const Rooms = roomsComponent();
    render(
      <QueryClientProvider client={client}>
        <Rooms />
        <Rooms />
      </QueryClientProvider>,
    );
    expect(await screen.findAllByText('room-v1')).toHaveLength(2);
    expect(calls).toBe(1);
    version = 2;
    await act(() => store.getState().update('Rooms'));
    expect(await screen.findAllByText('room-v2')).toHaveLength(2);
  });

  it('loads again when the set is cleared under a page showing it (signing out)', async () => {
    const Rooms = roomsComponent();
    render(
      <QueryClientProvider client={client}>
        <Rooms />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('room-v1')).toBeInTheDocument();
    version = 2;
    // What signing out does: every set cleared, every cached answer dropped.
    act(() => {
      store.getState().clear('Rooms');
      client.removeQueries();
    });
    expect(await screen.findByText('room-v2')).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});
