import { hasRule, Limits, ok, type Envelope } from '@atrium/shared';
import {
  chunkFields,
  fileManagerRequest,
  libraries,
  type FileManagerAction,
  type FileManagerRequest,
} from '@atrium/shared/contract/files';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { ApiError, fail, Messages, noPermission, notLoggedIn } from '../../http/envelope';
import { xsrfEchoed } from '../../http/xsrf';
import { createStorage, type Storage, type StorageOptions } from '../../storage/index';
import { ChunkFormError, readChunkForm, type FileTap } from '../upload/chunk-form';
import { fileOfChunk, grantCovers, UploadGrants } from '../upload/upload-grants.service';
import { parseLibrary, type SettingsReader } from '../upload/upload-rules';
import { UploadService } from '../upload/upload.service';
import { fileLibraryCallers, type LibraryAuth } from './file-library-callers';
import { FilesService } from './files.service';
import { filesDb, type Owner } from './files.tables';
import type { LibraryScope } from './files.repository';
import { registerServeRoutes } from './serve.routes';
import { Thumbnails } from './thumbnails';

type Permission = 'view' | 'upload' | 'edit' | 'delete';

/** DESIGN 7: the picker flags View / Upload / Add/Edit / Delete as admin rules. */
const permissionOf: Record<FileManagerAction | 'chunk', Permission> = {
  config: 'view',
  category: 'view',
  list: 'view',
  init: 'upload',
  chunk: 'upload',
  save: 'upload',
  fileEdit: 'edit',
  categoryEdit: 'edit',
  fileDelete: 'delete',
  categoryDelete: 'delete',
};

export const fileManagerRule = (permission: Permission) => `data/file_manager/${permission}`;

const successMessages: Partial<Record<FileManagerAction, string>> = {
  fileEdit: 'Edit Success',
  fileDelete: 'Delete Success',
  categoryEdit: 'Add Success',
  categoryDelete: 'Delete Success',
};

/** A part one byte over the chunk size still arrives, so the answer can say it was one byte too long. */
const oneByteOver = 1;

export function storageOptions(config: Config): StorageOptions {
  const storage = config.storage;
  return storage.driver === 'local'
    ? { driver: 'local', root: storage.dir }
    : {
        driver: 's3',
        bucket: storage.bucket,
        region: storage.region,
        endpoint: storage.endpoint,
        accessKeyId: storage.accessKeyId,
        secretAccessKey: storage.secretAccessKey,
      };
}

function isMultipart(req: FastifyRequest): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'body: is invalid';
  const field = issue.path.map(String).join('.') || 'body';
  if (issue.code === 'invalid_union' && field === 'action') {
    return 'action: expected one of config, init, save, category, list, fileEdit, fileDelete, categoryEdit, categoryDelete';
  }
  return issue.message.startsWith(`${field}:`) ? issue.message : `${field}: ${issue.message}`;
}

interface Caller {
  owner: Owner;
  /** Admin rules; undefined for members, who hold every right over their own library. */
  rules: string[] | undefined;
}

export interface FilesFeatureDeps {
  config: Config;
  db: Db;
  settings?: SettingsReader | undefined;
  now?: () => number;
  /** Defaults to the driver the config names. */
  storage?: Storage;
  /** How often abandoned sessions and unsaved uploads are swept; 0 disables the timer. */
  sweepIntervalMs?: number;
}

export interface FilesFeature {
  uploads: UploadService;
  files: FilesService;
  storage: Storage;
}

declare module 'fastify' {
  interface FastifyInstance {
    filesFeature: FilesFeature;
  }
}

/**
 * The file library and chunked upload at `/member_data/file_manager/:category` (each member's
 * own library) and `/admin/data/file_manager/:category` (the admin library), plus `GET /data/...`.
 */
export async function registerFilesFeature(
  app: FastifyInstance,
  deps: FilesFeatureDeps,
): Promise<FilesFeature> {
  const now = deps.now ?? Date.now;
  const storage = deps.storage ?? createStorage(storageOptions(deps.config));
  const db = filesDb(deps.db);
  const log = app.log;
  const uploads = new UploadService({
    db,
    storage,
    instances: app.services.instances,
    // SQLite serves one instance: nobody else continues its hashes.
    portableHashes: deps.config.database.kind === 'postgres',
    settings: deps.settings,
    clock: now,
    log,
  });
  const files = new FilesService(db, uploads, now);
  const thumbnails = new Thumbnails(storage);
  const grants = new UploadGrants(deps.db, now);
  const callers = fileLibraryCallers(app, grants);

  const stopSweeper =
    (deps.sweepIntervalMs ?? 3_600_000) > 0
      ? uploads.startSweeper(deps.sweepIntervalMs ?? 3_600_000)
      : undefined;
  app.addHook('onClose', async () => {
    stopSweeper?.();
    await uploads.close();
  });

  const originOf = (req: FastifyRequest) =>
    deps.config.publicUrl ?? `${req.protocol}://${req.host}`;

  const dispatch = async (
    caller: Caller,
    scope: LibraryScope,
    body: FileManagerRequest,
    origin: string,
  ): Promise<unknown> => {
    switch (body.action) {
      case 'config':
        return uploads.config();
      case 'init':
        return uploads.init(caller.owner, scope.library, body, origin);
      case 'save':
        return files.save(scope, body, origin);
      case 'category':
        return files.category(scope);
      case 'list':
        return files.list(scope, body, origin);
      case 'fileEdit':
        return files.fileEdit(scope, body.id, body.categoryId);
      case 'fileDelete':
        return files.fileDelete(scope, body.id);
      case 'categoryEdit':
        return files.categoryEdit(scope, body);
      case 'categoryDelete':
        return files.categoryDelete(scope, body.id);
    }
  };

  const allowed = (caller: Caller, action: FileManagerAction | 'chunk') =>
    caller.rules === undefined || hasRule(caller.rules, fileManagerRule(permissionOf[action]));

  const readChunk = async (
    req: FastifyRequest,
    caller: Caller,
    auth: LibraryAuth,
    scope: LibraryScope,
    origin: string,
  ): Promise<Envelope> => {
    const { chunkSize } = await uploads.config();
    let form;
    try {
      // The chunk goes to its place in staging while it arrives; it counts once checked whole.
      const tap: FileTap = {
        open: async (fields) => {
          const early = chunkFields.safeParse(fields);
          if (!early.success) return undefined;
          if (auth.grant && !grantCovers(auth.grant, fileOfChunk(scope.library, early.data)))
            return undefined;
          return uploads.openChunkSink(caller.owner, scope.library, early.data);
        },
      };
      form = await readChunkForm(
        req.raw,
        req.headers,
        { fileSize: chunkSize + oneByteOver, fields: 20, fieldSize: 4096 },
        tap,
      );
    } catch (error) {
      if (!(error instanceof ChunkFormError)) throw error;
      throw new ApiError(
        error.tooLarge ? `file: a chunk is at most ${chunkSize} bytes` : error.message,
      );
    }
    const written = form.written;
    try {
      const parsed = chunkFields.safeParse(form.fields);
      if (!form.file || !parsed.success) {
        form.release();
        throw new ApiError(parsed.success ? 'file: is required' : firstIssue(parsed.error));
      }
      const file = fileOfChunk(scope.library, parsed.data);
      if (auth.grant && !grantCovers(auth.grant, file)) {
        form.release();
        return notLoggedIn();
      }
      if (file) await grants.note(auth.token, auth.sessionId, file);
      return ok(
        await uploads.chunk(caller.owner, scope.library, parsed.data, form.file, origin, {
          release: form.release,
          written: form.written,
          transferable: form.transferable,
        }),
      );
    } finally {
      // `chunk` gives the sink's claim up; a form refused before it must too (this is idempotent),
      // so only a crashed process leaves a claim behind.
      await uploads.dropSink(written);
    }
  };

  const handle = async (
    req: FastifyRequest<{ Params: { category: string } }>,
    caller: Caller,
  ): Promise<Envelope> => {
    const library = parseLibrary(req.params.category);
    if (!library) throw new ApiError(`category: expected one of ${libraries.join(', ')}`);
    const scope: LibraryScope = { owner: caller.owner, library };
    const origin = originOf(req);
    const auth = callers.of(req);
    if (!auth) return notLoggedIn();
    if (isMultipart(req)) {
      if (!allowed(caller, 'chunk')) return noPermission();
      return readChunk(req, caller, auth, scope, origin);
    }
    const parsed = fileManagerRequest.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError(firstIssue(parsed.error));
    const body = parsed.data;
    // WebUploader sends `init` (like its chunks) with its own headers alone: no XSRF echo, and
    // the token it was created with. A cross-site page can set neither header (DESIGN 4).
    const file =
      body.action === 'init'
        ? { library, md5: body.md5.toLowerCase(), size: body.size, name: body.name }
        : undefined;
    if (auth.grant && !grantCovers(auth.grant, file)) return notLoggedIn();
    if (!file && !xsrfEchoed(req)) return fail(Messages.xsrfMismatch);
    if (!allowed(caller, body.action)) return noPermission();
    const data = await dispatch(caller, scope, body, origin);
    if (file) {
      await grants.note(auth.token, auth.sessionId, file);
      await grants.dropStale(auth.sessionId);
    }
    return ok(data ?? null, successMessages[body.action] ?? '');
  };

  await app.register(async (scoped) => {
    // A chunk's body is left unread here: readChunkForm reads the raw request once, and the
    // request keeps no body object (the audit log records the JSON `save`, not the bytes).
    scoped.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));

    // The caller is resolved before the body is read, so an anonymous caller learns nothing
    // from validation and a refused upload is not received at all.
    scoped.post(
      '/member_data/file_manager/:category',
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
      '/admin/data/file_manager/:category',
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

    registerServeRoutes(scoped, { storage, uploads: uploads.repo, thumbnails });
  });

  // Listed for the route walks; each action also checks its own right (permissionOf).
  app.routeRegistry.push(
    {
      method: 'POST',
      path: '/member_data/file_manager/:category',
      area: 'member',
      rule: undefined,
      public: false,
      body: fileManagerRequest,
    },
    {
      method: 'POST',
      path: '/admin/data/file_manager/:category',
      area: 'admin',
      rule: fileManagerRule('view'),
      public: false,
      body: fileManagerRequest,
    },
  );

  const feature: FilesFeature = { uploads, files, storage };
  app.decorate('filesFeature', feature);
  return feature;
}
