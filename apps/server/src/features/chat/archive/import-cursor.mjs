// @ts-check
// Where an import's writing stands across its short transactions: one source for the thread
// that writes on SQLite (archive-writer.worker.mjs) and the instance that writes on PostgreSQL
// (archive-import.ts). A transaction may end after any row, the conversation's own included, so
// "its row is written" is kept apart from "its next message": a conversation whose transaction
// ended right after its row, before its first message, must not be written again.

/**
 * @template {{ messages: readonly unknown[] }} C
 */
export class ImportCursor {
  /** @param {readonly C[]} conversations */
  constructor(conversations) {
    this.conversations = conversations;
    this.at = 0;
    this.next = 0;
    this.opened = false;
  }

  /** Every conversation is written. */
  get done() {
    return this.at >= this.conversations.length;
  }

  /** The conversation being written (undefined once all are). */
  get current() {
    return this.conversations[this.at];
  }

  /** Its row is still to be written. */
  get needsRow() {
    return !this.opened && !this.done;
  }

  rowWritten() {
    this.opened = true;
  }

  /** Its next message to write (undefined when none is left). */
  get message() {
    return /** @type {C['messages'][number] | undefined} */ (this.current?.messages[this.next]);
  }

  messageWritten() {
    this.next += 1;
  }

  /** Its row and every message are written: on to the next conversation. */
  conversationWritten() {
    this.at += 1;
    this.next = 0;
    this.opened = false;
  }
}
