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
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => resolve(Buffer.concat(pieces)));
    req.on('error', reject);
  });

/**
 * s3rver does not check Content-MD5; S3 and the stores modelled on it do. This front does what
 * they do (a body that does not match the header is refused with 400 BadDigest, nothing stored)
 * and can damage parts in transit, so the tests see what a real store would do with them.
 */
function strictFront(
  target: number,
  parts: RunningS3['parts'],
  damage: { left: number },
  upstreamSockets: Set<Socket>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void readBody(req).then(
      (received) => {
        let body = received;
        const url = new URL(req.url ?? '/', 'http://store');
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
            res.writeHead(answer.statusCode ?? 502, answer.headers);
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
  const front = createServer(strictFront(address.port, parts, damage, upstreamSockets));
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
    async stop() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of upstreamSockets) socket.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
