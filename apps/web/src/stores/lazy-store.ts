import { useEffect } from 'react';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { t } from '@/lib/i18n';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { useConfigStore } from './config-store';
import { useReloadStore } from './reload-store';

/**
 * Named data sets loaded on demand (SPEC 4.2), such as the chat rooms ("Rooms"). A set is not
 * registered, loading, or loaded; `<name>_init` turns true once it has loaded. The data itself is
 * cached by TanStack Query (queryClient.query); this store keeps the states and mirrors loaded values into
 * the config store's `lazy` map.
 */
type LazyStatus = 'loading' | 'loaded';

export interface LazyDefinition<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
}

interface LazyState {
  /** Absent: not loading and never loaded. */
  status: Record<string, LazyStatus>;
  /** `<name>_init` flags. */
  flags: Record<string, boolean>;
  register: <T>(name: string, definition: LazyDefinition<T>) => void;
  isRegistered: (name: string) => boolean;
  /** Loads a set once; later calls get the same data without a request. */
  load: (name: string) => Promise<unknown>;
  /** Reloads a set from the server (loads it if it never was). */
  update: (name: string) => Promise<unknown>;
  /** Marks a set not initialised and drops its data; the next load fetches again. */
  clear: (name: string) => void;
  /** Refreshes, among the given sets, those that have loaded or are loading. */
  refresh: (names: readonly string[]) => Promise<void>;
}

export type LazyStore = UseBoundStore<StoreApi<LazyState>>;

const initFlag = (name: string): string => `${name}_init`;

class LazyNotRegisteredError extends Error {
  constructor(name: string) {
    super(t('lazy.notRegistered', { name }));
    this.name = 'LazyNotRegisteredError';
  }
}

export function createLazyStore(queryClient: QueryClient): LazyStore {
  const definitions = new Map<string, LazyDefinition<unknown>>();
  const inFlight = new Map<string, Promise<unknown>>();

  return create<LazyState>((set, get) => {
    const definition = (name: string): LazyDefinition<unknown> => {
      const found = definitions.get(name);
      if (!found) throw new LazyNotRegisteredError(name);
      return found;
    };

    const fetchSet = (name: string, fresh: boolean): Promise<unknown> => {
      const { queryKey, queryFn } = definition(name);
      set((s) => ({ status: { ...s.status, [name]: 'loading' } }));
      const promise = queryClient
        .query({ queryKey, queryFn, staleTime: fresh ? 0 : Infinity })
        .then(
          (value) => {
            if (inFlight.get(name) === promise) inFlight.delete(name);
            set((s) => ({
              status: { ...s.status, [name]: 'loaded' },
              flags: { ...s.flags, [initFlag(name)]: true },
            }));
            useConfigStore.getState().setLazy(name, value);
            return value;
          },
          (error: unknown) => {
            if (inFlight.get(name) === promise) inFlight.delete(name);
            set((s) => {
              const status = { ...s.status };
              if (s.flags[initFlag(name)]) status[name] = 'loaded';
              else delete status[name];
              return { status };
            });
            throw error;
          },
        );
      inFlight.set(name, promise);
      return promise;
    };

    return {
      status: {},
      flags: {},
      register: (name, def) => {
        definitions.set(name, def);
      },
      isRegistered: (name) => definitions.has(name),
      load: async (name) => {
        const def = definition(name);
        const pending = inFlight.get(name);
        if (pending) return pending;
        if (get().flags[initFlag(name)]) return queryClient.getQueryData(def.queryKey);
        return fetchSet(name, false);
      },
      update: async (name) => {
        definition(name);
        const pending = inFlight.get(name);
        if (pending) await pending.catch(() => undefined);
        return fetchSet(name, true);
      },
      clear: (name) => {
        const def = definitions.get(name);
        if (def) queryClient.removeQueries({ queryKey: def.queryKey, exact: true });
        inFlight.delete(name);
        useConfigStore.getState().removeLazy(name);
        set((s) => {
          const status = { ...s.status };
          delete status[name];
          return { status, flags: { ...s.flags, [initFlag(name)]: false } };
        });
      },
      refresh: async (names) => {
        const { status } = get();
        const targets = names.filter((name) => definitions.has(name) && status[name]);
        // A failed refresh keeps the old data; the API client has already told the user.
        await Promise.all(
          targets.map((name) =>
            get()
              .update(name)
              .catch(() => undefined),
          ),
        );
      },
    };
  });
}

export const useLazyStore = createLazyStore(appQueryClient);

/**
 * A new map of lazy-data hashes from the server: every loaded set whose hash changed is fetched
 * again. The first map a page receives is only stored.
 */
export function applyLazyHashes(
  hashes: Record<string, string>,
  store: LazyStore = useLazyStore,
): Promise<void> {
  useConfigStore.getState().setHashLazyValue(hashes);
  const changed = useReloadStore.getState().receiveHashLazyValue(hashes);
  return store.getState().refresh(changed);
}

export interface LazyHandle<T> {
  name: string;
  /** The set's data once loaded (undefined if it was cleared meanwhile). */
  load: () => Promise<T | undefined>;
  /** Loads the set when a component needs it and re-renders when it changes. */
  useValue: () => { data: T | undefined; init: boolean };
}

/** Registers a set on the page's lazy store and returns typed accessors for it. */
export function defineLazy<T>(
  name: string,
  definition: LazyDefinition<T>,
  store: LazyStore = useLazyStore,
  client: QueryClient = appQueryClient,
): LazyHandle<T> {
  store.getState().register(name, definition);
  return {
    name,
    load: async () => {
      await store.getState().load(name);
      return client.getQueryData<T>(definition.queryKey);
    },
    useValue: () => {
      const init = store((s) => s.flags[initFlag(name)] === true);
      const { data } = useQuery(
        {
          queryKey: definition.queryKey,
          queryFn: definition.queryFn,
          enabled: false,
          staleTime: Infinity,
        },
        client,
      );
      useEffect(() => {
        if (init) return;
        // On mount, and again when the set is cleared under a mounted page (signing out drops
        // every set): a page showing the set never stays empty. Failures reach the user through
        // the API client's toast; the set stays not loaded.
        store
          .getState()
          .load(name)
          .catch(() => undefined);
      }, [init]);
      return { data, init };
    },
  };
}
