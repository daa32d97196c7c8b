import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL, Redis or S3 that a fault test drives (issue 26): it passes
 * bytes through until told to
 * - `reset()` every connection (what a server restart or a failover does to its clients);
 * - `pause()` them (a stall: bytes wait in the proxy, both ways, until `resume()`);
 * - `blackhole()` them (a host that vanished: bytes are dropped, nothing is closed, ever);
 * - `refuse()` new ones (accepted and reset at once).
 * `heal()` lets new connections through again; blackholed ones stay silent for good, as when the
 * old host vanished without a reset and only new connections reach a live one.
 */
export interface FaultProxy {
  readonly port: number;
  /** `127.0.0.1:port` of the proxy, for URLs. */
  readonly address: string;
  reset(): void;
  pause(): void;
  /** Ends a pause: what waited is delivered, in order. */
  resume(): void;
  blackhole(): void;
  refuse(): void;
  heal(): void;
  /** Connections open now (passing, paused or blackholed). */
  readonly open: number;
  close(): Promise<void>;
}

type State = 'pass' | 'paused' | 'dead';

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  state: State;
  /** Bytes from the client not yet written upstream (connecting, or paused). */
  toUpstream: Buffer[];
  /** Bytes from upstream held while paused. */
  toClient: Buffer[];
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: State | 'refuse' = 'pass';
  const pairs = new Set<Pair>();

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const flush = (pair: Pair) => {
    if (pair.state !== 'pass') return;
    for (const data of pair.toClient.splice(0)) pair.client.write(data);
    if (!pair.upstream) connectUpstream(pair);
    else if (!pair.upstream.connecting)
      for (const data of pair.toUpstream.splice(0)) pair.upstream.write(data);
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = createConnection(target);
    pair.upstream = upstream;
    upstream.setNoDelay(true);
    upstream.on('connect', () => flush(pair));
    upstream.on('data', (data: Buffer) => {
      if (pair.state === 'pass') pair.client.write(data);
      else if (pair.state === 'paused') pair.toClient.push(data);
    });
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => {
      // A dead host says nothing, not even that it closed.
      if (pair.state !== 'dead') drop(pair);
    });
  };

  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: undefined, state: mode, toUpstream: [], toClient: [] };
    pairs.add(pair);
    client.on('data', (data: Buffer) => {
      if (pair.state === 'dead') return;
      if (pair.state === 'pass' && pair.upstream && !pair.upstream.connecting)
        pair.upstream.write(data);
      else pair.toUpstream.push(data);
    });
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    // A paused or dead host accepts (the proxy is there) and answers nothing yet.
    if (pair.state === 'pass') connectUpstream(pair);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addressInfo = server.address();
  if (addressInfo === null || typeof addressInfo === 'string') throw new Error('no proxy port');
  const { port } = addressInfo;

  return {
    port,
    address: `127.0.0.1:${port}`,
    get open() {
      return pairs.size;
    },
    reset() {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream?.resetAndDestroy();
      }
    },
    pause() {
      mode = 'paused';
      for (const pair of pairs) if (pair.state === 'pass') pair.state = 'paused';
    },
    resume() {
      mode = 'pass';
      for (const pair of pairs) {
        if (pair.state !== 'paused') continue;
        pair.state = 'pass';
        flush(pair);
      }
    },
    blackhole() {
      mode = 'dead';
      for (const pair of pairs) {
        pair.state = 'dead';
        pair.toUpstream.length = 0;
        pair.toClient.length = 0;
      }
    },
    refuse() {
      mode = 'refuse';
    },
    heal() {
      mode = 'pass';
    },
    async close() {
      for (const pair of [...pairs]) drop(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
