import { once } from 'node:events';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./archive-parse.worker.mjs', import.meta.url);

/** A parsed heap of a 10 MB file is well under this; past it the file is refused, not the server. */
const PARSE_HEAP_MB = 512;

/** The file's JSON, parsed off the event loop: its head, and its conversations one at a time. */
export type ParsedExport =
  | { notJson: string }
  | {
      /** The top-level fields other than `conversations`. */
      head: Record<string, unknown>;
      /** How many conversations the list holds; -1 when `conversations` is not a list. */
      count: number;
      /** The next conversation as the file holds it (unchecked); undefined past the last. */
      next(): unknown;
      /** Frees the thread and what it still holds. */
      close(): Promise<void>;
    };

interface Reply {
  notJson?: string;
  head?: Record<string, unknown>;
  count?: number;
}

/**
 * Parses an import file on a thread of its own (archive-parse.worker.mjs): on SQLite the event
 * loop also runs every statement, and a 10 MB JSON.parse, with the garbage it leaves, held other
 * members' calls for a hundred milliseconds and more (issue 26, point 8). The conversations come
 * back one small structured copy at a time, when the caller asks for the next.
 */
export async function parseExport(text: string): Promise<ParsedExport> {
  const worker = new Worker(workerFile, {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, stackSizeMb: 4 },
  });
  // After the answer nothing the thread does matters: a later failure must not end the process.
  worker.on('error', () => undefined);
  worker.unref();
  const { port1: items, port2: itemsOut } = new MessageChannel();
  const close = async () => {
    items.close();
    await worker.terminate();
  };
  try {
    worker.postMessage({ text, items: itemsOut }, [itemsOut]);
    // Either rejects when the thread fails ('error'); an exit before any answer is a failure too.
    const reply = await Promise.race([
      once(worker, 'message').then(([answer]) => answer as Reply),
      once(worker, 'exit').then(([code]) => {
        throw new Error(`the import file's reader stopped (${String(code)})`);
      }),
    ]);
    if (reply.notJson !== undefined) {
      await close();
      return { notJson: reply.notJson };
    }
    return {
      head: reply.head ?? {},
      count: reply.count ?? -1,
      next: () => receiveMessageOnPort(items)?.message,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
