import { describe, expect, it } from 'vitest';
import { ImportCursor } from './import-cursor.mjs';

/** Writes with the cursor as the import's writers do, `slice` rows a transaction at most. */
function writeInSlices(conversations: { messages: string[] }[], slice: number) {
  const rows: string[] = [];
  const cursor = new ImportCursor(conversations);
  let transactions = 0;
  while (!cursor.done) {
    transactions += 1;
    // A cursor that writes a row again never gets to the end: stop it instead of running out of memory.
    if (transactions > 100) throw new Error(`no end after 100 transactions: ${rows.join(', ')}`);
    let left = slice;
    while (!cursor.done && left > 0) {
      const c = cursor.current;
      if (!c) break;
      if (cursor.needsRow) {
        rows.push(`conversation ${String(cursor.at)}`);
        cursor.rowWritten();
        left -= 1;
      }
      for (let m = cursor.message; m !== undefined && left > 0; m = cursor.message) {
        rows.push(m);
        cursor.messageWritten();
        left -= 1;
      }
      if (cursor.message !== undefined) break;
      cursor.conversationWritten();
    }
  }
  return { rows, transactions };
}

describe('an import cursor', () => {
  const file = [{ messages: ['q1', 'a1', 'q2'] }, { messages: [] }, { messages: ['q3', 'a3'] }];
  const whole = [
    'conversation 0',
    'q1',
    'a1',
    'q2',
    'conversation 1',
    'conversation 2',
    'q3',
    'a3',
  ];

  it('writes each row once whatever the size of the transactions', () => {
    for (const slice of [1, 2, 3, 100]) {
      expect(writeInSlices(file, slice).rows, `${String(slice)} a transaction`).toEqual(whole);
    }
    // One row a transaction: every transaction ends right after a conversation's own row.
    expect(writeInSlices(file, 1).transactions).toBe(whole.length);
  });

  it('keeps "its row is written" apart from "its next message"', () => {
    const cursor = new ImportCursor(file);
    expect(cursor.needsRow).toBe(true);
    cursor.rowWritten();
    // The transaction ends here: the next one goes on with the first message, not a new row.
    expect(cursor.needsRow).toBe(false);
    expect(cursor.message).toBe('q1');
    cursor.messageWritten();
    expect(cursor.next).toBe(1);
    cursor.conversationWritten();
    expect([cursor.at, cursor.next, cursor.needsRow]).toEqual([1, 0, true]);
    cursor.conversationWritten();
    cursor.conversationWritten();
    expect([cursor.done, cursor.needsRow, cursor.current]).toEqual([true, false, undefined]);
  });
});
