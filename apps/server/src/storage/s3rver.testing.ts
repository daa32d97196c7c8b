import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StorageOptions } from './s3';

export interface RunningS3 {
  options: S3StorageOptions;
  /** The environment that points a server (in process or not) at this store. */
  env: Record<string, string>;
  /** Each UploadPart that reached the store: its part number and whether it carried Content-MD5. */
  parts: { partNumber: number; contentMd5: boolean }[];
  /** Flips one byte of each of the next `count` parts on their way to the store. */
  damageNextParts(count: number): void;
  /**
   * Answers the next `count` calls of a kind with 503 Service Unavailable, as a store that is
   * failing does: CompleteMultipartUpload ('complete') or CopyObject ('copy').
   */
  failNext(kind: StoreCall, count: number): void;
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => resolve(Buffer.concat(pieces)));
    req.on('error', reject);
  });

/** Calls a test can make the store fail (see `RunningS3.failNext`). */
export type StoreCall = 'complete' | 'copy';

function callOf(req: IncomingMessage, url: URL): StoreCall | undefined {
  if (req.method === 'POST' && url.searchParams.has('uploadId')) return 'complete';
  if (req.method === 'PUT' && req.headers['x-amz-copy-source']) return 'copy';
  return undefined;
}

/** A multipart upload begun and neither completed nor aborted yet. */
interface Unfinished {
  key: string;
  uploadId: string;
  initiated: Date;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** S3's answer to ListMultipartUploads (one page: tests hold few). */
function listUploadsXml(bucket: string, prefix: string, uploads: Iterable<Unfinished>): string {
  const items = [...uploads]
    .filter((upload) => upload.key.startsWith(prefix))
    .map(
      (upload) =>
        `<Upload><Key>${escapeXml(upload.key)}</Key><UploadId>${escapeXml(upload.uploadId)}</UploadId>` +
        `<Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Bucket>${escapeXml(bucket)}</Bucket><Prefix>${escapeXml(prefix)}</Prefix>` +
    `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${items}` +
    '</ListMultipartUploadsResult>'
  );
}

/**
 * s3rver does not check Content-MD5; S3 and the stores modelled on it do. This front does what
 * they do (a body that does not match the header is refused with 400 BadDigest, nothing stored)
 * and can damage parts in transit, so the tests see what a real store would do with them. It
 * also answers ListMultipartUploads and AbortMultipartUpload, which s3rver lacks, from the uploads
 * it saw begun and not completed or aborted, so the sweep of abandoned uploads is tested as it
 * runs against S3 (s3rver keeps an aborted upload's part files in its folder; the store lists
 * the upload no more).
 */
function strictFront(
  target: number,
  bucket: string,
  parts: RunningS3['parts'],
  damage: { left: number },
  upstreamSockets: Set<Socket>,
  failing: Map<StoreCall, number>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const unfinished = new Map<string, Unfinished>();
  return (req, res) => {
    void readBody(req).then(
      (received) => {
        let body = received;
        const url = new URL(req.url ?? '/', 'http://store');
        const objectKey = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
        const uploadId = url.searchParams.get('uploadId');
        const call = callOf(req, url);
        const failures = call ? (failing.get(call) ?? 0) : 0;
        if (call && failures > 0) {
          failing.set(call, failures - 1);
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code>' +
              '<Message>Please reduce your request rate.</Message></Error>',
          );
          return;
        }
        if (req.method === 'DELETE' && uploadId) {
          // AbortMultipartUpload, which s3rver lacks too: the upload is gone for the store.
          const known = unfinished.delete(uploadId);
          res.writeHead(known ? 204 : 404, { 'content-type': 'application/xml' });
          res.end(
            known
              ? undefined
              : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>',
          );
          return;
        }
        if (req.method === 'GET' && url.searchParams.has('uploads')) {
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.end(
            listUploadsXml(bucket, url.searchParams.get('prefix') ?? '', unfinished.values()),
          );
          return;
        }
        const partNumber = Number(url.searchParams.get('partNumber') ?? NaN);
        const declared = req.headers['content-md5'];
        if (req.method === 'PUT' && Number.isInteger(partNumber)) {
          parts.push({ partNumber, contentMd5: typeof declared === 'string' });
          if (damage.left > 0 && body.length > 0) {
            damage.left -= 1;
            body = Buffer.from(body);
            body[body.length >> 1] = (body[body.length >> 1] ?? 0) ^ 0xff;
          }
        }
        if (typeof declared === 'string') {
          const actual = createHash('md5').update(body).digest('base64');
          if (actual !== declared) {
            res.writeHead(400, { 'content-type': 'application/xml' });
            res.end(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>BadDigest</Code>' +
                '<Message>The Content-MD5 you specified did not match what we received.</Message></Error>',
            );
            return;
          }
        }
        const headers = {
          ...req.headers,
          'content-length': String(body.length),
          // One connection per request: nothing left open when the store stops.
          connection: 'close',
        };
        delete headers['transfer-encoding'];
        const upstream = request(
          {
            host: '127.0.0.1',
            port: target,
            method: req.method,
            path: req.url,
            headers,
            agent: false,
          },
          (answer) => {
            const status = answer.statusCode ?? 502;
            const ok = status >= 200 && status < 300;
            if (ok && uploadId && req.method === 'POST') unfinished.delete(uploadId);
            if (ok && req.method === 'POST' && url.searchParams.has('uploads')) {
              // CreateMultipartUpload: its id is in the answer, read before it is passed on.
              void readBody(answer).then(
                (xml) => {
                  const id = /<UploadId>([^<]+)<\/UploadId>/.exec(xml.toString())?.[1];
                  if (id)
                    unfinished.set(id, { key: objectKey, uploadId: id, initiated: new Date() });
                  res.writeHead(status, answer.headers);
                  res.end(xml);
                },
                () => res.destroy(),
              );
              return;
            }
            res.writeHead(status, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('socket', (socket) => {
          upstreamSockets.add(socket);
          socket.once('close', () => upstreamSockets.delete(socket));
        });
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      },
      () => res.destroy(),
    );
  };
}

/**
 * Starts s3rver in-process on a free loopback port with a throw-away directory, behind a front
 * that checks Content-MD5 as S3 does (see `strictFront`).
 */
export async function startS3rver(bucket = 'atrium-test'): Promise<RunningS3> {
  const directory = await mkdtemp(join(tmpdir(), 'atrium-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const parts: RunningS3['parts'] = [];
  const damage = { left: 0 };
  const upstreamSockets = new Set<Socket>();
  const failing = new Map<StoreCall, number>();
  const front = createServer(
    strictFront(address.port, bucket, parts, damage, upstreamSockets, failing),
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    options: {
      bucket,
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    parts,
    damageNextParts(count) {
      damage.left = count;
    },
    failNext(kind, count) {
      failing.set(kind, count);
    },
    async stop() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of upstreamSockets) socket.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
