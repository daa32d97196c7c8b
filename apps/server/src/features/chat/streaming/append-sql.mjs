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
 * On PostgreSQL the rows are share-locked: an instance ending one of them (abandoned.ts) waits
 * for the write to commit, and then reads its parts.
 * @param {boolean} postgres
 */
function liveAnswers(postgres) {
  const [rows, writer] = postgres ? ['$1', '$2'] : ['?', '?'];
  return {
    from: `from (${rowsOf(postgres, rows)}) as v join chat_messages m on m.id = v.vid`,
    where: `${postgres ? 'm.status' : '+m.status'} = 'streaming' and m.writer_instance = ${writer}`,
    lock: postgres ? 'for share of m' : '',
  };
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
  const live = liveAnswers(postgres);
  const fresh = again
    ? `and v.vseq > m.seq and not exists (select 1 from chat_message_parts p
        where p.message_id = v.vid and p.seq = v.vseq)`
    : '';
  return `insert into chat_message_parts (message_id, seq, text)
    select v.vid, v.vseq, v.vtext ${live.from}
    where ${live.where} ${fresh} ${live.lock}
    ${again ? '' : 'returning message_id as id'}`;
}

/** Which of a write's answers are still streaming and written by the writer (after `again`). */
export function liveSql(/** @type {boolean} */ postgres) {
  const live = liveAnswers(postgres);
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
 * meanwhile (abandoned.ts) either waits for the fold or is waited for.
 * The statements in order, each with `bind`, which answers its parameters' values in order from
 * the rows' JSON, the writer and the time of the fold.
 * @param {boolean} postgres
 * @returns {{ text: string, bind: (rows: string, writer: string, now: number) => unknown[] }[]}
 */
export function foldSql(postgres) {
  if (postgres) {
    const lock = `select id from chat_messages where id in (select vid from (${rowsOf(true, '$1')}) as v)
      and status = 'streaming' and writer_instance = $2 order by id for update`;
    const fold = `update chat_messages m set content = v.vtext, seq = v.vseq, updated_at = $3
      from (${rowsOf(true, '$1')}) as v
      where m.id = v.vid and m.status = 'streaming' and m.writer_instance = $2 and m.seq < v.vseq`;
    return [
      { text: lock, bind: (rows, writer) => [rows, writer] },
      { text: fold, bind: (rows, writer, now) => [rows, writer, now] },
    ];
  }
  const fold = `update chat_messages set content = v.vtext, seq = v.vseq, updated_at = ?
    from (${rowsOf(false, '?')}) as v
    where chat_messages.id = v.vid and +chat_messages.status = 'streaming'
      and chat_messages.writer_instance = ? and chat_messages.seq < v.vseq`;
  // `?` binds in the order of the text: the time comes first there.
  return [{ text: fold, bind: (rows, writer, now) => [now, rows, writer] }];
}

/**
 * The sweep of parts no reader needs, over the next `limit` parts after a key, so that one step
 * costs the same however many parts there are: those whose answer has ended (its row has the
 * whole text) or is gone, and those its row has folded. Any writer's, since the rule needs no
 * writer: a part is read only while its answer streams and is past its row's seq.
 * `bound` answers the last key of the step (null past the table's end: the next step starts from
 * its beginning); `clear` then deletes, its parameters the key after which and that bound.
 * @param {boolean} postgres
 */
export function sweepSql(postgres) {
  const [key, after, limit, upTo] = postgres ? ['id', '$1', '$2', '$2'] : ['rowid', '?', '?', '?'];
  return {
    bound: `select max(k) as bound from (select ${key} as k from chat_message_parts
      where ${key} > ${after} order by ${key} limit ${limit}) as step`,
    clear: `delete from chat_message_parts where ${key} > ${after} and ${key} <= ${upTo}
      and not exists (select 1 from chat_messages m where m.id = chat_message_parts.message_id
        and m.status = 'streaming' and m.seq < chat_message_parts.seq)`,
  };
}
