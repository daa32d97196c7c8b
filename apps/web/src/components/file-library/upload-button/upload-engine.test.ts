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
import { runUpload, UploadError, type UploadOptions } from './upload-engine';
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
    const failed = await upload(content(100 * 1024, 3), 'down.bin', {
      outageWaitMs: 300,
      outageDelayMs: (attempt, retryAfterSeconds) => {
        pauses.push(retryAfterSeconds);
        return 50;
      },
    }).catch((error: unknown) => error);
    server.unavailable('chunk', 'storage', 0);

    expect(failed).toBeInstanceOf(UploadError);
    if (!(failed instanceof UploadError)) return;
    expect(failed.outage).toBe('storage');
    expect(pauses.length).toBeGreaterThan(2);
    expect(new Set(pauses)).toEqual(new Set([3]));
    setLanguage('zh-CN');
    expect(uploadErrorText(failed, tFiles)).toBe(catalogue['unavailable.storage']['zh-CN']);
    setLanguage('en');
    expect(uploadErrorText(failed, tFiles)).toBe(catalogue['unavailable.storage'].en);
    setLanguage('zh-CN');
  });
});
