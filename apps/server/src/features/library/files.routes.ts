import { hasRule, Limits, ok, type Envelope } from '@atrium/shared';
import { fieldName } from '@atrium/shared/messages/catalogue';
import {
  fileLibraryAddresses,
  fileManagerCalls,
  fileManagerRequest,
  fileManagerRule,
  libraries,
  type FileManagerAction,
} from '@atrium/shared/contract/files';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import {
  ApiError,
  message,
  noPermission,
  notLoggedIn,
  okSaying,
  refOf,
  refusal,
  type MessageRef,
} from '../../http/envelope';
import { describeZodError } from '../../http/errors';
import { FormBody, formValues, parseFormBody } from '../../http/form-body';
import { checkedAnswer } from '../../http/route';
import { refuseActionNotOffered } from './actions-not-offered';
import { xsrfEchoed } from '../../http/xsrf';
import type { Storage } from '../../storage/index';
import { grantCovers, parseLibrary, type UploadGrants, type UploadService } from './upload/index';
import type { fileLibraryCallers, LibraryAuth } from './file-library-callers';
import type { CategoriesService } from './categories.service';
import {
  fileManagerActions,
  runAction,
  successMessages,
  type FileManagerCaller,
} from './file-manager-actions';
import type { FilesService } from './files.service';
import type { TrashService } from './trash.service';
import type { LibraryScope } from './files.repository';
import { registerServeRoutes } from './serve.routes';
import type { Thumbnails } from './thumbnails';
import type { CategoryDeletePreview } from './category-delete-preview';
import type { TrashLinks } from './trash-links';
import type { TrashedFileRef } from './trashed-files';

function isMultipart(req: FastifyRequest): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
}

/** The body's first problem; an unknown `action` names the ones there are (SPEC 7.2, 7.3). */
function firstIssue(error: z.ZodError, body: unknown): MessageRef {
  const issue = error.issues[0];
  if (issue?.code === 'invalid_union' && issue.path.join('.') === 'action') {
    return {
      ...message('validation.oneOf', {
        field: fieldName('action'),
        options: actionNames.join(', '),
      }),
      field: 'action',
    };
  }
  return describeZodError(error, body);
}

/** A form's values as its action's fields take them (an unknown action: as sent). */
function formRequest(form: FormBody): Record<string, unknown> {
  const action = form.fields.action;
  const call =
    typeof action === 'string' && action !== 'chunk' && Object.hasOwn(fileManagerCalls, action)
      ? fileManagerCalls[action as FileManagerAction]
      : undefined;
  return formValues(call?.request ?? z.object({}), form);
}

const actionNames = Object.keys(fileManagerCalls).filter((action) => action !== 'chunk');

/** What the file-manager routes serve with (built by the files feature). */
export interface FileManagerContext {
  config: Config;
  uploads: UploadService;
  files: FilesService;
  categories: CategoriesService;
  trashBin: TrashService;
  storage: Storage;
  thumbnails: Thumbnails;
  grants: UploadGrants;
  callers: ReturnType<typeof fileLibraryCallers>;
  /** Signed addresses of trashed files, and the lookup that serves them (issue 28). */
  trash: { links: TrashLinks; file: (id: number) => Promise<TrashedFileRef | undefined> };
  categoryPreview: CategoryDeletePreview;
}

/**
 * The file library and chunked upload at `/member_data/file_manager/:category` (each member's
 * own library) and `/admin/data/file_manager/:category` (the admin library), plus `GET /data/...`:
 * validate, check the caller's right for the action, call the service.
 */
export async function registerFileManagerRoutes(
  app: FastifyInstance,
  ctx: FileManagerContext,
): Promise<void> {
  const { uploads, files, categories, trashBin, storage, thumbnails, grants, callers } = ctx;
  const deps = { config: ctx.config };
  const originOf = (req: FastifyRequest) =>
    deps.config.publicUrl ?? `${req.protocol}://${req.host}`;

  const handlers = fileManagerActions({
    uploads,
    files,
    categories,
    trashBin,
    trashLinks: ctx.trash.links,
    categoryPreview: ctx.categoryPreview,
  });

  const allowed = (caller: FileManagerCaller, action: FileManagerAction | 'chunk') =>
    caller.rules === undefined ||
    hasRule(caller.rules, fileManagerRule(fileManagerCalls[action].permission));

  /** Tests parse each success against the action's declared answer (Config.checkAnswers). */
  const answer = (
    req: FastifyRequest,
    action: FileManagerAction | 'chunk',
    result: Envelope,
  ): Envelope =>
    app.checkAnswers
      ? checkedAnswer(fileManagerCalls[action].answer, `${req.url} ${action}`, result)
      : result;

  /** A chunk: the service reads the form and owns its sink; this adapts the answer. */
  const readChunk = async (
    req: FastifyRequest,
    caller: FileManagerCaller,
    auth: LibraryAuth,
    scope: LibraryScope,
    origin: string,
  ): Promise<Envelope> => {
    const received = await uploads.receiveChunk(
      {
        body: req.raw,
        headers: req.headers,
        grant: auth.grant,
        noteFile: (file) => grants.note(auth.token, auth.sessionId, file),
      },
      { owner: caller.owner, library: scope.library, origin },
    );
    if ('refused' in received) return notLoggedIn();
    return answer(req, 'chunk', ok(received.answer));
  };

  const handle = async (
    req: FastifyRequest<{ Params: { category: string } }>,
    caller: FileManagerCaller,
  ): Promise<Envelope> => {
    const library = parseLibrary(req.params.category);
    if (!library) {
      throw new ApiError({
        ...message('validation.oneOf', {
          field: fieldName('category'),
          options: libraries.join(', '),
        }),
        field: 'category',
      });
    }
    const scope: LibraryScope = { owner: caller.owner, library };
    const origin = originOf(req);
    const auth = callers.of(req);
    if (!auth) return notLoggedIn();
    const queried = (req.query as { action?: unknown } | undefined)?.action;
    if (isMultipart(req)) {
      refuseActionNotOffered(queried);
      if (!allowed(caller, 'chunk')) return noPermission();
      return readChunk(req, caller, auth, scope, origin);
    }
    const sent = req.body instanceof FormBody ? formRequest(req.body) : (req.body ?? {});
    const action = (sent as { action?: unknown }).action;
    refuseActionNotOffered(action, queried);
    const parsed = fileManagerRequest.safeParse(sent);
    if (!parsed.success) throw new ApiError(firstIssue(parsed.error, sent));
    const body = parsed.data;
    // WebUploader sends `init` (like its chunks) with its own headers alone: no XSRF echo, and
    // the token it was created with. A cross-site page can set neither header (DESIGN 4).
    const file =
      body.action === 'init'
        ? { library, md5: body.md5.toLowerCase(), size: body.size, name: body.name }
        : undefined;
    if (auth.grant && !grantCovers(auth.grant, file)) return notLoggedIn();
    // A cookie counts only with its same-origin proof, which stands for the echo (README).
    if (!file && auth.via === 'header' && !xsrfEchoed(req)) {
      return refusal(message('http.xsrfMismatch'));
    }
    if (!allowed(caller, body.action)) return noPermission();
    const data = await runAction(handlers, body.action, {
      body,
      caller,
      scope,
      origin,
      lang: req.lang,
    });
    if (file) {
      await grants.note(auth.token, auth.sessionId, file);
      await grants.dropStale(auth.sessionId);
    }
    const notice = successMessages[body.action];
    return answer(req, body.action, notice ? okSaying(data, refOf(notice)) : ok(data));
  };

  await app.register(async (scoped) => {
    // A chunk's body is left unread here: readChunkForm reads the raw request once, and the
    // request keeps no body object (the audit log records the JSON `save`, not the bytes).
    scoped.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));
    // ModStart's jQuery posts forms (issue 31): kept as strings until the action is known.
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, text, done) => done(null, parseFormBody(String(text))),
    );

    // The caller is resolved before the body is read, so an anonymous caller learns nothing
    // from validation and a refused upload is not received at all.
    scoped.post(
      fileLibraryAddresses.member,
      {
        // The server's default bounds anonymous bodies; these callers are known before reading.
        bodyLimit: Limits.jsonBodyLimitBytes,
        config: { xsrf: 'route' },
        onRequest: async (req, reply) => {
          req.member = (await callers.member(req, reply)) ?? null;
          if (!req.member) return reply.send(notLoggedIn());
        },
      },
      async (req: FastifyRequest<{ Params: { category: string } }>) => {
        if (!req.member) return notLoggedIn();
        return handle(req, { owner: { type: 'member', id: req.member.id }, rules: undefined });
      },
    );

    scoped.post(
      fileLibraryAddresses.admin,
      {
        bodyLimit: Limits.jsonBodyLimitBytes,
        config: { xsrf: 'route' },
        onRequest: async (req, reply) => {
          req.admin = (await callers.admin(req, reply)) ?? null;
          if (!req.admin) return reply.send(notLoggedIn());
          const rights = (['view', 'upload', 'edit', 'delete'] as const).map(fileManagerRule);
          if (!hasRule(req.admin.rules, rights)) return reply.send(noPermission());
        },
      },
      async (req: FastifyRequest<{ Params: { category: string } }>) => {
        if (!req.admin) return notLoggedIn();
        return handle(req, { owner: { type: 'admin', id: 0 }, rules: req.admin.rules });
      },
    );

    registerServeRoutes(scoped, {
      storage,
      blobs: uploads.repo.blobs,
      thumbnails,
      trash: ctx.trash,
    });
  });

  // Listed for the route walks; each action also checks its own right (permissionOf).
  app.routeRegistry.push(
    {
      method: 'POST',
      path: fileLibraryAddresses.member,
      area: 'member',
      rule: undefined,
      public: false,
      body: fileManagerRequest,
    },
    {
      method: 'POST',
      path: fileLibraryAddresses.admin,
      area: 'admin',
      rule: fileManagerRule('view'),
      public: false,
      body: fileManagerRequest,
    },
  );
}
