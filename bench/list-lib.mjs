// The library of list.bench.mjs: a million files with names people give them, in 10,000
// categories, and the rooms that use them, loaded straight into SQLite; or one loaded before.
import Database from 'better-sqlite3';
import { prng } from './lib.mjs';

const nameKinds = [
  'Invoice',
  'Report',
  'Holiday photo',
  'Contract',
  'Meeting notes',
  'Budget',
  'Screenshot',
  'Scan',
  'Presentation',
  'Draft',
  'Résumé',
  'Receipt',
  '季度报告',
  '会议纪要',
  '合同',
  '发票',
  '旅行照片',
  '预算',
];
const nameSubjects = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Berlin office',
  'Paris trip',
  'marketing',
  'sales',
  'design review',
  'team offsite',
  'Project Atlas',
  'Project Orion',
  '上海',
  '北京',
  '客户',
  '产品',
  '市场部',
  '设计',
];
const nameExts = ['pdf', 'png', 'jpg', 'docx', 'xlsx', 'txt', 'zip', 'pptx'];
/** A file's name, type and address: the i-th of the library. */
function fileOf(i, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const kind = pick(nameKinds);
  const subject = pick(nameSubjects);
  const year = 2015 + Math.floor(random() * 11);
  const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
  const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
  const ext = nameExts[i % nameExts.length];
  const name = `${kind} ${subject} ${year}-${month}-${day} ${i}.${ext}`;
  const path = `/data/file/ab/${i.toString(16).padStart(24, '0')}/file.${ext}`;
  return { name, ext, path };
}

/**
 * Fills the admin "file" library of the migrated database `file`: `tops` top-level categories with
 * `childrenPerTop` each, `fileCount` files spread at random, `refCount` references from `roomCount`
 * rooms. Answers the category ids, the references made and the files left unused.
 */
export function bulkLoad(file, { fileCount, refCount, roomCount, tops, childrenPerTop }) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = Date.now();
  const sha = 'ab'.repeat(32);
  const load = db.transaction(() => {
    const blob = db
      .prepare(
        'insert into file_blobs (name, md5, size, sent_size, storage_key, ref_count, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(sha, 'cd'.repeat(16), 1234, 1234, `blobs/ab/${sha}`, fileCount, now).lastInsertRowid;
    const addCategory = db.prepare(
      `insert into file_categories (owner_type, owner_id, library, pid, name, sort, path, file_count, created_at, updated_at)
       values ('admin', 0, 'file', ?, ?, 0, '/', 0, ?, ?)`,
    );
    const setPath = db.prepare('update file_categories set path = ? where id = ?');
    const topIds = [];
    const leafIds = [];
    for (let t = 0; t < tops; t += 1) {
      const top = Number(addCategory.run(0, `Top ${t}`, now, now).lastInsertRowid);
      setPath.run(`/${top}/`, top);
      topIds.push(top);
      for (let c = 0; c < childrenPerTop; c += 1) {
        const child = Number(addCategory.run(top, `Top ${t} / ${c}`, now, now).lastInsertRowid);
        setPath.run(`/${top}/${child}/`, child);
        leafIds.push(child);
      }
    }
    const all = [...topIds, ...leafIds];
    const counts = new Map();
    const random = prng(42);
    const addFile = db.prepare(
      `insert into files (owner_type, owner_id, library, category_id, blob_id, name, ext, size, path, created_at, use_count)
       values ('admin', 0, 'file', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const addRoom = db.prepare(
      'insert into chat_rooms (title, created_at, updated_at) values (?, ?, ?)',
    );
    const rooms = [];
    for (let r = 0; r < roomCount; r += 1)
      rooms.push(Number(addRoom.run(`Room ${r}`, now, now).lastInsertRowid));
    const addRef = db.prepare(
      `insert into file_refs (path, kind, holder_id, member_id, blob_id, created_at)
       values (?, ?, ?, null, null, ?)`,
    );
    const naming = prng(7);
    let refs = 0;
    let unused = 0;
    for (let i = 0; i < fileCount; i += 1) {
      const category = all[Math.floor(random() * all.length)];
      counts.set(category, (counts.get(category) ?? 0) + 1);
      const file = fileOf(i, naming);
      // A third unused, a third held once (a room's description), a third twice (and a download).
      // The last file takes what the pattern leaves over (one reference at a million files).
      const uses = Math.min(i === fileCount - 1 ? rooms.length : i % 3, refCount - refs);
      if (uses === 0) unused += 1;
      const size = 1000 + Math.floor(random() * 10_000_000);
      addFile.run(category, blob, file.name, file.ext, size, file.path, now + i, uses);
      for (let u = 0; u < uses; u += 1) {
        const room = rooms[(i + u * 7) % rooms.length];
        addRef.run(file.path, u === 0 ? 'roomDescription' : 'roomDownload', room, now);
      }
      refs += uses;
    }
    const setCount = db.prepare('update file_categories set file_count = ? where id = ?');
    for (const [id, count] of counts) setCount.run(count, id);
    db.prepare(
      `insert into file_library_stats (owner_type, owner_id, library, file_count, unused_count) values ('admin', 0, 'file', ?, ?)`,
    ).run(fileCount, unused);
    return { topIds, leafIds, refs, unused };
  });
  const ids = load();
  // The name index merged into one b-tree, as the server's merger leaves it (db/fts-merge.ts);
  // freshly loaded, it holds the many segments of a million inserts.
  db.exec("insert into files_fts (files_fts) values ('optimize')");
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return ids;
}

/** A library loaded before (BENCH_LIST_REUSE=<data dir>, kept by BENCH_LIST_KEEP=1): its ids and counts. */
export function loaded(file) {
  const db = new Database(file, { readonly: true });
  const categories = db.prepare('select id, pid from file_categories').all();
  const stats = db.prepare('select unused_count as unused from file_library_stats').get();
  const refs = db.prepare('select count(*) as n from file_refs').get().n;
  db.close();
  return {
    topIds: categories.filter((c) => c.pid === 0).map((c) => c.id),
    leafIds: categories.filter((c) => c.pid !== 0).map((c) => c.id),
    refs,
    unused: stats.unused,
  };
}
