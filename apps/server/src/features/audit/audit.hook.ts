import { Code } from '@atrium/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditService } from './audit.service';

/**
 * Every admin write lands in the audit log without any route asking for it: a hook looks at each
 * successful answer to a signed-in admin and records it unless the call only reads. What reads
 * is decided by the call's verb (the last path segment, or `action` for the file manager), so a
 * new route is audited by default and forgetting can only make the log say too much.
 */
const readVerbs = new Set([
  'all',
  'category',
  // The file manager's question before a category's delete: what would move, nothing moved.
  'categoryDeletePreview',
  'config',
  'count',
  'detail',
  'export',
  'get',
  'image',
  'info',
  'init',
  'list',
  'models',
  'options',
  'preview',
  'quota',
  'search',
  'setting',
  'stats',
  'summary',
  'tree',
  'trash',
  'usage',
]);

const secretKey = /password|secret|token|api_?key/i;
const maxDetailChars = 2000;
const maxTargetChars = 200;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The action name: the path under `/admin/api/` (or `/admin/`), plus `:<action>` for the file
 * manager, whose body names its action (another call's `action`, such as the audit list's filter,
 * is data).
 */
export function auditAction(url: string, body: Json): string {
  const path = url.split('?')[0] ?? '';
  const name = path.replace(/^\/admin\/(api\/)?/, '');
  return name.startsWith('data/file_manager/') && typeof body.action === 'string'
    ? `${name}:${body.action}`
    : name;
}

export function isReadAction(action: string): boolean {
  const verb = action.includes(':')
    ? action.slice(action.lastIndexOf(':') + 1)
    : action.split('/').at(-1);
  return readVerbs.has(verb ?? '');
}

/** The body with secrets replaced, as JSON text of bounded length. */
export function auditDetail(body: Json): string {
  const text = JSON.stringify(body, (key, value: unknown) =>
    key !== '' && secretKey.test(key) ? '***' : value,
  );
  return text.length > maxDetailChars ? `${text.slice(0, maxDetailChars)}…` : text;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

const idText = (value: unknown): string | undefined => {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.join(',');
  return text(value);
};

/** What the write was about: the id and a name from the body, or from the answer of a create. */
export function auditTarget(body: Json, data: unknown): string {
  const answer = isObject(data) ? data : {};
  const id = idText(body.id) ?? idText(answer.id);
  const name =
    text(body.username) ??
    text(body.name) ??
    text(body.title) ??
    text(answer.username) ??
    text(answer.name);
  const target = [id === undefined ? '' : `#${id}`, name ?? ''].filter(Boolean).join(' ');
  return target.slice(0, maxTargetChars);
}

function isSuccess(payload: unknown): payload is { code: number; data: unknown } {
  return isObject(payload) && payload.code === Code.Success;
}

async function recordWrite(
  audit: AuditService,
  now: () => number,
  req: FastifyRequest,
  payload: unknown,
): Promise<void> {
  const admin = req.admin;
  // Multipart upload chunks have no JSON body; the `save` that files the upload is recorded.
  if (!admin || req.method !== 'POST' || !isObject(req.body) || !isSuccess(payload)) return;
  const action = auditAction(req.url, req.body);
  if (isReadAction(action)) return;
  try {
    await audit.record({
      adminId: admin.id,
      adminUsername: admin.username,
      action,
      target: auditTarget(req.body, payload.data),
      detail: auditDetail(req.body),
      ip: req.ip,
      createdAt: now(),
    });
  } catch (error) {
    // The write itself succeeded; failing its answer now would invite a retry of it.
    req.log.error({ err: error, action }, 'audit entry not recorded');
  }
}

/** Registered on the root instance before any feature, so every admin route is covered. */
export function registerAuditHook(app: FastifyInstance, audit: AuditService, now: () => number) {
  app.addHook('preSerialization', async (req, _reply, payload: unknown) => {
    await recordWrite(audit, now, req, payload);
    return payload;
  });
}
