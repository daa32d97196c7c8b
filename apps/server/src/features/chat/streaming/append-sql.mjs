// @ts-check
// The statements of the group commit, per dialect, shared by the instance's own connection and
// the thread that runs them on SQLite beside the event loop (append.worker.mjs).
//
// A write appends one part per answer to `chat_message_parts` (migration 2026_12_05_1000): only
// the new text travels and is stored, so a write costs what the answers gained, not what they
// hold. The rows come as one JSON array of [id, text, seq]. The writer folds a few answers' text
// into their rows after each write (`foldSql`), each answer about once a second, and sweeps a
// few parts no reader needs (`sweepSql`): so the parts a reader adds to a row stay few, and no
// step's cost grows with the number of answers (one fold of them all stopped every write for up
// to 120 ms at a thousand answers).
// On SQLite the `+` keeps the status index out of the plans: with it the planner reads every
// streaming row and scans the JSON for each (2.3 s for 1,000 answers, against 60 ms through the
// ids' primary key).

/**
 * @param {boolean} postgres
 * @param {string} rows the parameter holding the rows' JSON
 */
function rowsOf(postgres, rows) {
  return postgres
    ? `select (r->>0)::integer as vid, r->>1 as vtext, (r->>2)::integer as vseq
        from jsonb_array_elements(cast(${rows} as jsonb)) as r`
    : `select json_extract(value, '$[0]') as vid, json_extract(value, '$[1]') as vtext,
        json_extract(value, '$[2]') as vseq from json_each(${rows})`;
}

/**
 * The answers among the rows still streaming and written by the writer, and how to say it.
 * On PostgreSQL each row's answer is looked up by its key, a subquery per row (`lateral`, kept
 * apart by `offset 0`) whatever the statistics say: taken while few answers streamed, they made
 * the planner reach the answers through the status index and read the rows' JSON again for each
 * (500 answers: 250,000 reads, 180 ms a write). `lock`: the answers are share-locked, so an
 * instance ending one of them (abandoned.ts) waits for the write to commit, and then reads its
 * parts. Rows are locked in id order, as the fold locks them, so that no two statements of
 * the group commit can each hold a row the other waits for.
 * @param {boolean} postgres
 * @param {boolean} lock
 */
function liveAnswers(postgres, lock) {
  if (postgres)
    return {
      from: `from (${rowsOf(true, '$1')} order by vid) as v
        ${streamingAnswer('', lock ? 'for share' : '')}`,
      where: 'true',
    };
  return {
    from: `from (${rowsOf(false, '?')}) as v join chat_messages m on m.id = v.vid`,
    where: `+m.status = 'streaming' and m.writer_instance = ?`,
  };
}

/**
 * PostgreSQL: the answer of each row `v` (as `m`, its seq) while it streams and is written by the
 * writer (`$2`), looked up by its key, with `also` a further condition and `lock` a locking clause.
 * @param {string} also
 * @param {string} lock
 */
function streamingAnswer(also, lock) {
  return `cross join lateral (select m.seq from chat_messages m where m.id = v.vid
    and m.status = 'streaming' and m.writer_instance = $2 ${also} offset 0 ${lock}) as m`;
}

/**
 * The append of a write's parts; its parameters, in order: the rows' JSON, the writer. Answers
 * the ids of the answers appended to. Rows of answers no longer streaming, or written by another
 * instance since, are left out.
 *
 * `again`: the write is tried again after a failure its caller saw, and may have committed all
 * the same (a connection lost after the commit, a thread given up while it waited). A part whose
 * seq is already stored (as a part, or folded into the row) is then not appended twice; the
 * answers still live are read by `liveSql`.
 * @param {boolean} postgres
 * @param {boolean} again
 */
export function appendSql(postgres, again) {
  const live = liveAnswers(postgres, true);
  const fresh = again
    ? `and v.vseq > m.seq and not exists (select 1 from chat_message_parts p
        where p.message_id = v.vid and p.seq = v.vseq)`
    : '';
  return `insert into chat_message_parts (message_id, seq, text)
    select v.vid, v.vseq, v.vtext ${live.from}
    where ${live.where} ${fresh}
    ${again ? '' : 'returning message_id as id'}`;
}

/** Which of a write's answers are still streaming and written by the writer (after `again`). */
export function liveSql(/** @type {boolean} */ postgres) {
  const live = liveAnswers(postgres, false);
  return `select v.vid as id ${live.from} where ${live.where}`;
}

/**
 * The fold of some of the writer's streaming answers (a slice per tick, answer-flusher.ts): each
 * row takes its whole stored text from the writer's memory, and the seq of its last part. The
 * rows come as one JSON array of [id, text, seq]. A row whose seq is already at or past the
 * slice's (a fold tried again after it committed) is left as it is, so a fold never goes back.
 * A streaming row starts empty and only its writer writes it, so its text is the writer's text
 * up to what it has stored. The parts a fold covers are left to `sweepSql`; every read skips
 * them already (only parts past the row's seq are added).
 * PostgreSQL locks the slice's rows first, in id order, so an instance ending one of them
 * meanwhile (abandoned.ts) either waits for the fold or is waited for; each row is looked up by
 * its key (`streamingAnswer`), never through the status index.
 * One statement on either database, with `bind`, which answers its parameters' values in order
 * from the rows' JSON, the writer and the time of the fold.
 * @param {boolean} postgres
 * @returns {{ text: string, bind: (rows: string, writer: string, now: number) => unknown[] }}
 */
export function foldSql(postgres) {
  if (postgres) {
    // One statement: the rows are locked in id order (`locked`, run before the update), and
    // held for the statement's time only, not for round trips through a busy event loop.
    const fold = `with locked as materialized (
        select v.vid, v.vtext, v.vseq from (${rowsOf(true, '$1')} order by vid) as v
        ${streamingAnswer('', 'for update')} where m.seq < v.vseq)
      update chat_messages t set content = locked.vtext, seq = locked.vseq, updated_at = $3
      from locked where t.id = locked.vid`;
    return { text: fold, bind: (rows, writer, now) => [rows, writer, now] };
  }
  const fold = `update chat_messages set content = v.vtext, seq = v.vseq, updated_at = ?
    from (${rowsOf(false, '?')}) as v
    where chat_messages.id = v.vid and +chat_messages.status = 'streaming'
      and chat_messages.writer_instance = ? and chat_messages.seq < v.vseq`;
  // `?` binds in the order of the text: the time comes first there.
  return { text: fold, bind: (rows, writer, now) => [now, rows, writer] };
}

/**
 * The sweep of parts no reader needs, over the next `limit` parts after a key, so that one step
 * costs the same however many parts there are: those whose answer has ended (its row has the
 * whole text) or is gone, and those its row has folded. Any writer's, since the rule needs no
 * writer: a part is read only while its answer streams and is past its row's seq.
 * SQLite: `bound` answers the last key of the step (null past the table's end: the next step
 * starts from its beginning); `clear` then deletes, its parameters the key after which and that
 * bound, in the same transaction. PostgreSQL: `step` does both in one statement, its parameters
 * the key after which and the limit, and answers that bound.
 * @param {boolean} postgres
 * @returns {{ bound: string, clear: string } | { step: string }}
 */
export function sweepSql(postgres) {
  const needed = (/** @type {string} */ part) => `not exists (select 1 from chat_messages m
    where m.id = ${part}.message_id and m.status = 'streaming' and m.seq < ${part}.seq)`;
  if (postgres)
    return {
      step: `with step as materialized (select id from chat_message_parts
          where id > $1 order by id limit $2),
        cleared as (delete from chat_message_parts p
          where p.id > $1 and p.id <= (select max(id) from step) and ${needed('p')})
        select max(id) as bound from step`,
    };
  return {
    bound: `select max(k) as bound from (select rowid as k from chat_message_parts
      where rowid > ? order by rowid limit ?) as step`,
    clear: `delete from chat_message_parts where rowid > ? and rowid <= ?
      and ${needed('chat_message_parts')}`,
  };
}
