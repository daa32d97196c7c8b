import { randomId } from '@/lib/random';
import { fileKey } from './upload-rules';

/**
 * What the browser keeps of the uploads under way (issue 28), so a page loaded after a reload
 * or a crash can list the ones that did not finish: the file's name, size, last change and its
 * library, never its bytes. Choosing the file again resumes it (the server keeps what it got).
 */
export interface UnfinishedUpload {
  name: string;
  size: number;
  lastModified: number;
  /** The library key (`category`) and the library's address. */
  category: string;
  url: string;
  /** The page that started it: this page's own are running, not interrupted. */
  page: string;
}

const storageKey = 'atrium.uploads.unfinished';
/** At most this many are kept: the oldest go first. */
const kept = 50;

/** This page's id: what it starts is its own until it goes. */
export const thisPage = randomId();

function read(): UnfinishedUpload[] {
  try {
    const value: unknown = JSON.parse(rawList() ?? '[]');
    return Array.isArray(value) ? value.filter(isEntry) : [];
  } catch {
    return [];
  }
}

function isEntry(value: unknown): value is UnfinishedUpload {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.name === 'string' &&
    typeof entry.size === 'number' &&
    typeof entry.lastModified === 'number' &&
    typeof entry.category === 'string' &&
    typeof entry.url === 'string' &&
    typeof entry.page === 'string'
  );
}

/** Told of every change of the list, here or in another tab: what pages re-read it on. */
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** For `useSyncExternalStore`: told of every change, also another tab's. */
export function subscribeUnfinished(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKey || event.key === null) changed();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(entries: UnfinishedUpload[]): void {
  try {
    if (entries.length === 0) localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, JSON.stringify(entries.slice(-kept)));
  } catch {
    // Storage full or refused (private mode): the list is a convenience, the upload goes on.
  }
  changed();
}

const sameFile = (entry: UnfinishedUpload, key: string, category: string, url: string) =>
  fileKey(entry) === key && entry.category === category && entry.url === url;

/** Notes an upload this page starts (or starts again). */
export function rememberUpload(
  file: { name: string; size: number; lastModified: number },
  category: string,
  url: string,
): void {
  const key = fileKey(file);
  const others = read().filter((e) => !sameFile(e, key, category, url));
  const { name, size, lastModified } = file;
  write([...others, { name, size, lastModified, category, url, page: thisPage }]);
}

/** Forgets an upload: finished, removed, refused for good, or chosen again elsewhere. */
export function forgetUpload(
  file: { name: string; size: number; lastModified: number },
  category: string,
  url: string,
): void {
  const key = fileKey(file);
  const entries = read();
  const left = entries.filter((e) => !sameFile(e, key, category, url));
  if (left.length !== entries.length) write(left);
}

const none: readonly UnfinishedUpload[] = [];
const snapshots = new Map<string, { raw: string | null; entries: readonly UnfinishedUpload[] }>();

function rawList(): string | null {
  try {
    return localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

/**
 * The uploads of this library that another page (one reloaded or closed) left unfinished; the
 * same array while what the browser keeps is the same (a `useSyncExternalStore` snapshot).
 */
export function interruptedUploads(category: string, url: string): readonly UnfinishedUpload[] {
  const key = `${url}\u0000${category}`;
  const raw = rawList();
  const cached = snapshots.get(key);
  if (cached && cached.raw === raw) return cached.entries;
  const found = read().filter(
    (e) => e.page !== thisPage && e.category === category && e.url === url,
  );
  const entries = found.length > 0 ? found : none;
  snapshots.set(key, { raw, entries });
  return entries;
}

/** Forgets every interrupted upload of this library (the person dismissed the list). */
export function dismissInterrupted(category: string, url: string): void {
  const entries = read();
  write(entries.filter((e) => e.page === thisPage || e.category !== category || e.url !== url));
}
