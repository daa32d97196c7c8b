import { every } from '../../every';
import type { FastifyInstance } from 'fastify';
import { resolveSecret, type Config } from '../../config';
import type { Db } from '../../db/index';
import { filesDb } from './library.tables';
import { createStorage, type Storage, type StorageOptions } from '../../storage/index';
import { UploadGrants, UploadService, type SettingsReader } from './upload/index';
import { fileLibraryCallers } from './file-library-callers';
import { registerFileManagerRoutes } from './files.routes';
import { CategoriesService } from './categories.service';
import { FilesService } from './files.service';
import { LibraryAnswers } from './library-answers';
import { TrashService } from './trash.service';
import { Thumbnails } from './thumbnails';
import { CategoryDeletePreview } from './category-delete-preview';
import { TrashLinks } from './trash-links';
import { trashedFile } from './trashed-files';
import { siteOriginOf } from '../../http/session-cookie';

function storageOptions(config: Config): StorageOptions {
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

export interface LibraryFeatureDeps {
  config: Config;
  db: Db;
  settings?: SettingsReader | undefined;
  now?: () => number;
  /** Defaults to the driver the config names. */
  storage?: Storage;
  /** How often abandoned sessions and unsaved uploads are swept; 0 disables the timer. */
  sweepIntervalMs?: number;
}

export interface LibraryFeature {
  uploads: UploadService;
  files: FilesService;
  trash: TrashService;
  storage: Storage;
}

/**
 * The file library (SPEC 3, 7.2, 7.3; DESIGN 6): builds storage, the upload engine and its
 * sweeper, the library service and thumbnails, then registers the file-manager routes.
 */
export async function registerLibraryFeature(
  app: FastifyInstance,
  deps: LibraryFeatureDeps,
): Promise<LibraryFeature> {
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
  // The hot reads' answers kept in memory, shared by the list and the category tree (issue 32).
  const answers = new LibraryAnswers();
  const files = new FilesService(db, uploads, now, answers);
  const categories = new CategoriesService(db, now, answers);
  const trash = new TrashService(db, uploads, now);
  if (!(await files.nameSearchIndexed()))
    log.warn(
      'pg_trgm is not available (migration 2026_11_29_7000 could not create it): file library name search runs without an index',
    );
  const thumbnails = new Thumbnails(storage);
  const grants = new UploadGrants(deps.db, now);
  const callers = fileLibraryCallers(app, grants, (req) =>
    siteOriginOf(deps.config.publicUrl, req),
  );

  const stopSweeper =
    (deps.sweepIntervalMs ?? 3_600_000) > 0
      ? uploads.startSweeper(deps.sweepIntervalMs ?? 3_600_000)
      : undefined;
  // The trash lets go of what it has kept longer than the upload settings' trashDays.
  const stopPurge =
    (deps.sweepIntervalMs ?? 3_600_000) > 0
      ? every(
          deps.sweepIntervalMs ?? 3_600_000,
          () => trash.purgeExpired(),
          (error) => log.warn({ err: error }, 'trash purge failed'),
        )
      : undefined;
  app.addHook('onClose', async () => {
    stopSweeper?.();
    stopPurge?.();
    await uploads.close();
  });

  await registerFileManagerRoutes(app, {
    config: deps.config,
    uploads,
    files,
    categories,
    trashBin: trash,
    storage,
    thumbnails,
    grants,
    callers,
    trash: {
      links: new TrashLinks(resolveSecret(deps.config).secret, now),
      file: (id) => trashedFile(db, id),
    },
    categoryPreview: new CategoryDeletePreview(db, files),
  });
  return { uploads, files, trash, storage };
}
