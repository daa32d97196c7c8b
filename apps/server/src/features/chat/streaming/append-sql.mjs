// @ts-check
// The statements of the group commit, per dialect, shared by the instance's own connection and
// the thread that runs them on SQLite beside the event loop (append.worker.mjs).
//
// A write appends one part per answer to `chat_message_parts` (migration 2026_12_05_1000): only
// the new text travels and is stored, so a write costs what the answers gained, not what they
// hold. The rows come as one JSON array of [id, text, seq]. About once a second the writer folds
// its answers' parts into their rows (`foldSql`), so the parts a reader adds to a row stay few.
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
 * The fold of the writer's parts into its streaming answers' rows, in one transaction: the
 * statements in order, each with `bind`, which answers its parameters' values in order from the
 * writer and the time of the fold.
 * PostgreSQL locks the rows first (in id order), so an instance ending one of them meanwhile
 * (abandoned.ts) either waits for the fold or is waited for, never moves half of its parts.
 * The last statement removes every part whose answer is not another writer's streaming one:
 * those just folded, and those of answers ended since (their row has the whole text).
 * @param {boolean} postgres
 * @returns {{ text: string, bind: (writer: string, now: number) => unknown[] }[]}
 */
export function foldSql(postgres) {
  const [writer, now] = postgres ? ['$1', '$2'] : ['?', '?'];
  const lock = `select id from chat_messages
    where status = 'streaming' and writer_instance = ${writer} order by id for update`;
  const fold = `update chat_messages
    set content = chat_messages.content || f.text, seq = f.seq, updated_at = ${now}
    from (select p.message_id as id, string_agg(p.text, '' order by p.seq) as text,
            max(p.seq) as seq
          from chat_message_parts p join chat_messages m on m.id = p.message_id
          where p.seq > m.seq and m.status = 'streaming' and m.writer_instance = ${writer}
          group by p.message_id) as f
    where chat_messages.id = f.id`;
  const clear = `delete from chat_message_parts where not exists (
    select 1 from chat_messages m where m.id = chat_message_parts.message_id
      and m.status = 'streaming' and m.writer_instance <> ${writer})`;
  /** @param {string} w */
  const byWriter = (w) => [w];
  const statements = [
    // `?` binds in the order of the text: the time comes first there.
    {
      text: fold,
      bind: postgres
        ? (/** @type {string} */ w, /** @type {number} */ n) => [w, n]
        : (/** @type {string} */ w, /** @type {number} */ n) => [n, w],
    },
    { text: clear, bind: byWriter },
  ];
  return postgres ? [{ text: lock, bind: byWriter }, ...statements] : statements;
}
