import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Outage } from '@atrium/shared/outage';
import { catalogue } from '@atrium/shared/messages/catalogue';
import { createUploadTransport } from '@/components/file-library/api/upload-transport';
import { tFiles } from '@/components/file-library/i18n';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { setLanguage } from '@/lib/i18n';
import { runUpload, UploadCancelled, UploadError, type UploadOptions } from './upload-engine';
import { uploadErrorText } from './upload-messages';

const chunkSize = 64 * 1024;
let server: FileManagerTestServer;

beforeAll(async () => {
  server = await startFileManagerTestServer({ chunkSize });
});
afterAll(() => server.close());
beforeEach(() => {
  server.calls.length = 0;
});

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

function content(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * seed + (i >> 7)) & 0xff;
  return out;
}

/** An upload through the real transport (XMLHttpRequest) to the test server. */
function upload(data: Uint8Array<ArrayBuffer>, name: string, extra: Partial<UploadOptions> = {}) {
  return runUpload({
    file: new File([data], name, { type: 'application/octet-stream', lastModified: 1 }),
    id: 'WU_FILE_0',
    chunkSize,
    transport: createUploadTransport(server.url, 'file'),
    hash: async (blob) => md5(new Uint8Array(await blob.arrayBuffer())),
    signal: new AbortController().signal,
    // A refusal for an outage must not spend these: none is left to spend.
    fileRetries: 0,
    chunkRetries: 0,
    outageDelayMs: () => 5,
    ...extra,
  });
}

describe('upload engine during an outage (code 1005)', () => {
  it('waits out refused chunks, init and save, telling the person, and finishes the file without a restart', async () => {
    const data = content(200 * 1024, 11);
    const told: (Outage | undefined)[] = [];
    server.unavailable('init', 'database', 2);
    server.unavailable('chunk', 'storage', 5);
    server.unavailable('save', 'diskFull', 1);
    const result = await upload(data, 'outage.bin', {
      saveInto: 0,
      onOutage: (outage) => told.push(outage),
    });

    expect(result.path).toBe(`/data/files/${md5(data)}.bin`);
    expect(result.saved?.name).toBe('outage.bin');
    // One session, never opened again: the refused chunk was sent again, nothing restarted.
    expect(server.callsOf('init')).toHaveLength(3);
    const sent = server.callsOf('chunk').map((call) => Number(call.body.chunk));
    expect(sent).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 3]);
    expect(told).toEqual([
      'database',
      'database',
      undefined,
      'storage',
      'storage',
      'storage',
      'storage',
      'storage',
      undefined,
      'diskFull',
      undefined,
    ]);
  });

  it('honours the wait the server asks for, within the bound, and then says what is out in the person’s language', async () => {
    const pauses: number[] = [];
    server.unavailable('chunk', 'storage', 1000);
    // The bound is kept on the engine's clock: each pause moves it 100 ms on (and costs no real
    // time), so a busy machine's slow answers don't change how many tries fit in 300 ms.
    let clock = 0;
    const failed = await upload(content(100 * 1024, 3), 'down.bin', {
      outageWaitMs: 300,
      now: () => clock,
      outageDelayMs: (attempt, retryAfterSeconds) => {
        pauses.push(retryAfterSeconds);
        clock += 100;
        return 0;
      },
    }).catch((error: unknown) => error);
    server.unavailable('chunk', 'storage', 0);

    expect(failed).toBeInstanceOf(UploadError);
    if (!(failed instanceof UploadError)) return;
    expect(failed.outage).toBe('storage');
    // Tried at 0, 100 and 200 ms, refused each time; at 300 ms the bound is spent.
    expect(pauses).toHaveLength(3);
    expect(new Set(pauses)).toEqual(new Set([3]));
    setLanguage('zh-CN');
    expect(uploadErrorText(failed, tFiles)).toBe(catalogue['unavailable.storage']['zh-CN']);
    setLanguage('en');
    expect(uploadErrorText(failed, tFiles)).toBe(catalogue['unavailable.storage'].en);
    setLanguage('zh-CN');
  });
});

describe('upload engine when the file is removed', () => {
  // A late failure would be tried again, a late success would hand the next chunks on.
  it.each([
    ['failure (HTTP 500)', 1],
    ['success', 0],
  ])(
    'stops at once while a chunk is held, and a late %s restarts nothing, even from a transport that cannot cut its call',
    async (_answer, failing) => {
      const real = createUploadTransport(server.url, 'file');
      const deaf = new AbortController().signal;
      // The calls go on whatever the upload's signal says, as a held request that cannot be cut.
      const transport: UploadOptions['transport'] = {
        init: (meta) => real.init(meta, deaf),
        chunk: (fields, body, _signal, onProgress) => real.chunk(fields, body, deaf, onProgress),
        save: (body) => real.save(body, deaf),
      };
      const removal = new AbortController();
      server.files.length = 0;
      server.failChunks(failing);
      server.holdChunks(1500);
      const running = upload(content(200 * 1024, 5), 'removed.bin', {
        transport,
        signal: removal.signal,
        chunkRetries: 5,
        parallel: 3,
        saveInto: 0,
        retryDelayMs: () => 0,
      }).catch((error: unknown) => error);
      while (server.chunksInFlight() === 0) await new Promise((r) => setTimeout(r, 10));
      removal.abort();
      // Settled before the held chunk answers: nothing waits on it.
      expect(await running).toBeInstanceOf(UploadCancelled);
      expect(server.chunksInFlight()).toBe(1);
      while (server.chunksInFlight() > 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300));
      server.holdChunks(0);
      server.failChunks(0);
      // The held chunk 0 answered after the removal: it was not sent again, no other chunk
      // followed it, nothing was saved.
      expect(server.callsOf('chunk').map((c) => c.body.chunk)).toEqual(['0']);
      expect(server.callsOf('save')).toHaveLength(0);
      expect(server.files).toHaveLength(0);
    },
  );
});
