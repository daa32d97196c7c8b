// @ts-check
// The one statement of every flush, per dialect, shared by the instance's own connection and the
// thread that runs it on SQLite beside the event loop (append.worker.mjs). The rows come as one
// JSON array of [id, text, seq]: only the new text travels and is bound, so a write costs what
// the answers gained, not their length. A row appends only when its seq is the one before
// (`seq - 1`); one already at `seq` is a write that committed though its caller saw it fail, and
// is left as it is, so a retried write never doubles text. On SQLite the `+` keeps the status
// index out of the plan: with it the planner reads every streaming row and scans the JSON for
// each (2.3 s for 1,000 answers, against 60 ms through the ids' primary key).

/**
 * The statement's text; its parameters, in order: the time of the write, the rows' JSON, the
 * writer.
 * @param {boolean} postgres
 */
export function appendSql(postgres) {
  const [now, rows, writer] = postgres ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  const source = postgres
    ? `select (r->>0)::integer as vid, r->>1 as vtext, (r->>2)::integer as vseq
        from jsonb_array_elements(cast(${rows} as jsonb)) as r`
    : `select json_extract(value, '$[0]') as vid, json_extract(value, '$[1]') as vtext,
        json_extract(value, '$[2]') as vseq from json_each(${rows})`;
  const status = postgres ? 'chat_messages.status' : '+chat_messages.status';
  return `update chat_messages
    set content = case when chat_messages.seq = v.vseq - 1
          then chat_messages.content || v.vtext else chat_messages.content end,
        seq = v.vseq,
        updated_at = ${now}
    from (${source}) as v
    where chat_messages.id = v.vid and chat_messages.seq in (v.vseq - 1, v.vseq)
      and ${status} = 'streaming' and chat_messages.writer_instance = ${writer}
    returning chat_messages.id`;
}
