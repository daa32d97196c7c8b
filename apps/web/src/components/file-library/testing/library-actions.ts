import { listPage } from './list-answer';

/**
 * The file library's own actions for the test server (SPEC 7.3): categories and files kept in
 * memory, listed, moved, deleted and saved as the server does. Uploads (config, init, chunks)
 * and the HTTP side are the server's (file-manager-test-server.ts).
 */

export interface TestCategory {
  id: number;
  pid: number;
  name: string;
}

export interface TestFile {
  id: number;
  categoryId: number;
  name: string;
  type: string;
  size: number;
  path: string;
}

export type Body = Record<string, string | number | undefined>;
/** An envelope, or a bare HTTP status (a failure before any envelope). */
export type Answer = { code: number; msg: string; data: unknown } | { status: number };
export const ok = (data: unknown, msg = ''): Answer => ({ code: 0, msg, data });
export const fail = (msg: string): Answer => ({ code: -1, msg, data: null });

export interface Library {
  categories: TestCategory[];
  files: TestFile[];
  /** Answers a library action, or undefined for one that is not the library's. */
  respond(action: string, category: string, body: Body): Answer | undefined;
}

export function createLibrary(rootName: string): Library {
  const categories: TestCategory[] = [];
  const files: TestFile[] = [];
  let nextId = 1;

  interface Node {
    id: number;
    pid: number;
    name: string;
    title: string;
    sort: number;
    _child: Node[];
  }
  const node = (id: number, pid: number, name: string): Node => ({
    id,
    pid,
    name,
    title: name,
    sort: 0,
    _child: categories
      .filter((c) => c.pid === id && c.id !== id)
      .map((c) => node(c.id, c.pid, c.name)),
  });
  const flatten = (nodes: Node[], depth = 0): Omit<Node, '_child'>[] =>
    nodes.flatMap(({ _child, ...rest }) => [{ ...rest, depth }, ...flatten(_child, depth + 1)]);
  const descendants = (id: number): Set<number> => {
    const out = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of categories) {
        if (out.has(c.pid) && !out.has(c.id)) {
          out.add(c.id);
          grew = true;
        }
      }
    }
    return out;
  };

  const listed = (f: TestFile, category: string) => ({
    id: f.id,
    category,
    filename: f.name,
    name: f.name,
    path: f.path,
    fullPath: `http://cdn.test${f.path}`,
    type: f.type,
    size: f.size,
    categoryId: f.categoryId,
    createdAt: f.id,
  });

  function respond(action: string, category: string, body: Body): Answer | undefined {
    switch (action) {
      case 'save': {
        const name = String(body.name);
        // The same bytes under the same name in the category: the server answers that file.
        const twin = files.find(
          (f) =>
            f.categoryId === Number(body.categoryId ?? 0) &&
            f.name === name &&
            f.path === String(body.path),
        );
        if (twin) return ok({ ...listed(twin, category), existing: true });
        const record: TestFile = {
          id: nextId++,
          categoryId: Number(body.categoryId ?? 0),
          name,
          type: name.slice(name.lastIndexOf('.') + 1).toLowerCase(),
          size: Number(body.size),
          path: String(body.path),
        };
        files.push(record);
        return ok(listed(record, category));
      }
      case 'category': {
        const all = [node(0, 0, rootName)];
        const list = flatten(all);
        return ok({
          categoryTreeAll: all,
          categoryListAll: list,
          categoryTreeParent: all,
          categoryListParent: list,
          categories: list.filter((c) => c.id !== 0),
        });
      }
      case 'list': {
        const scope = Number(body.categoryId ?? 0);
        const inScope =
          scope === 0 ? files : files.filter((f) => descendants(scope).has(f.categoryId));
        const { files: shown, ...paging } = listPage(inScope, body);
        return ok({ records: shown.map((f) => listed(f, category)), ...paging });
      }
      case 'fileEdit': {
        const ids = String(body.id).split(',').map(Number);
        for (const f of files) if (ids.includes(f.id)) f.categoryId = Number(body.categoryId);
        return ok(null, 'Edit Success');
      }
      case 'fileDelete': {
        const ids = String(body.id).split(',').map(Number);
        for (let i = files.length - 1; i >= 0; i--)
          if (ids.includes(files[i]?.id ?? -1)) files.splice(i, 1);
        return ok(null, 'Delete Success');
      }
      case 'categoryEdit': {
        const id = Number(body.id ?? 0);
        const title = String(body.title);
        if (id === 0) {
          const added = { id: nextId++, pid: Number(body.pid ?? 0), name: title };
          categories.push(added);
          return ok({ id: added.id }, 'Add Success');
        }
        const found = categories.find((c) => c.id === id);
        if (!found) return fail('no such category');
        found.name = title;
        found.pid = Number(body.pid ?? 0);
        return ok({ id }, 'Add Success');
      }
      case 'categoryDeletePreview': {
        const id = Number(body.id);
        const found = categories.find((c) => c.id === id);
        if (!found) return fail('no such category');
        const below = descendants(id);
        return ok({
          files: files.filter((f) => f.categoryId === id).length,
          categories: categories.filter((c) => c.pid === id).length,
          filesBelow: files.filter((f) => f.categoryId !== id && below.has(f.categoryId)).length,
          parent: categories.find((c) => c.id === found.pid)?.name ?? rootName,
          used: [],
          moreUsed: 0,
        });
      }
      case 'categoryDelete': {
        const id = Number(body.id);
        const found = categories.find((c) => c.id === id);
        if (!found) return fail('no such category');
        for (const c of categories) if (c.pid === id) c.pid = found.pid;
        for (const f of files) if (f.categoryId === id) f.categoryId = found.pid;
        categories.splice(categories.indexOf(found), 1);
        return ok(null, 'Delete Success');
      }
      default:
        return undefined;
    }
  }

  return { categories, files, respond };
}
