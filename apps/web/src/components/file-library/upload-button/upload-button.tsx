import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type Ref,
} from 'react';
import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { outageText } from '@/lib/api';
import { toast } from '@/lib/feedback';
import { randomId } from '@/lib/random';
import { useConfigStore } from '@/stores/config-store';
import { useFilesT } from '@/components/file-library/i18n';
import { resolveUploadConfig, useUploadConfig } from '@/components/file-library/api/upload-config';
import { createUploadTransport } from '@/components/file-library/api/upload-transport';
import { computeMd5 } from './md5';
import { runUpload, UploadCancelled, UploadError, type UploadResult } from './upload-engine';
import { checkFailureText, uploadErrorText } from './upload-messages';
import { canRetry } from './upload-failure';
import {
  acceptOf,
  checkFile,
  chunkSizeOf,
  parallelChunksOf,
  fileKey,
  ruleFor,
  type UploadConfig,
} from './upload-rules';
import { pageUploadConfig } from './page-upload-config';
import { progressPace, progressRedrawMs } from './progress-pace';
import { useThemeVars } from './theme-vars';
import { activePhases, firstBatch, nextBatch, UploadQueue, type QueueItem } from './upload-queue';
import { InterruptedUploads, useListsInterrupted } from './interrupted-uploads';
import {
  dismissInterrupted,
  forgetUpload,
  interruptedUploads,
  rememberUpload,
  subscribeUnfinished,
  type UnfinishedUpload,
} from './unfinished-uploads';
import './upload-button.css';

/** Lets a surrounding view queue files the button did not pick (dropped or pasted ones). */
export interface UploadButtonHandle {
  /** Queues files with the same checks as the button's own (type, size, beforeUpload). */
  add(files: readonly File[]): void;
}

export interface UploadButtonProps {
  handle?: Ref<UploadButtonHandle>;
  /** Base address of the file library (SPEC 7.2). */
  url?: string;
  /** Library key. */
  category?: string;
  /** Upload configuration held by the page; fetched with `config` when neither this nor the page has one. */
  config?: UploadConfig;
  /** Save each upload into the library once stored. */
  autoSave?: boolean;
  /** Category the auto-save files into: 0 from a plain button, the current one from the picker. */
  saveCategoryId?: number;
  /** Return false (or resolve false) to keep a file out of the queue. */
  beforeUpload?: (file: File) => boolean | Promise<boolean>;
  onUploaded?: (result: UploadResult) => void;
  width?: number | string;
  multiple?: boolean;
  disabled?: boolean;
  children?: ReactNode;
}

const noneInterrupted: readonly UnfinishedUpload[] = [];
const fadeMs = 300;
const doneLingerMs = 700;
const existingLingerMs = 4000;
const active = activePhases;

/** The chunked, resumable upload button with its queue (SPEC 2.6, 4.5, 5, 8.2). */
export function UploadButton({
  url = '/member_data/file_manager',
  category = 'file',
  width = 200,
  multiple = true,
  ...props
}: UploadButtonProps) {
  const t = useFilesT();
  const client = useQueryClient();
  const vars = useThemeVars();
  const fromPage = useConfigStore((s) => pageUploadConfig(s.config));
  const known = props.config ?? fromPage;
  const fetched = useUploadConfig(url, category, !known);
  const config = known ?? fetched.data;
  const rule = ruleFor(config, category);

  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<QueueItem[]>([]);
  const itemsRef = useRef<QueueItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const chain = useRef<Promise<void>>(Promise.resolve());
  /** What a failed upload needs to be tried again. */
  const sources = useRef(new Map<string, { file: File; chunkSize: number; parallel: number }>());
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  // Uploads a reloaded or closed page left unfinished (issue 28), listed by one button a library.
  const listsInterrupted = useListsInterrupted(url, category);
  // Re-read on every change of what the browser keeps (a file chosen again is this page's now).
  const interrupted = useSyncExternalStore(subscribeUnfinished, () =>
    listsInterrupted ? interruptedUploads(category, url) : noneInterrupted,
  );

  const [batch, setBatch] = useState(firstBatch);
  const update = useCallback((change: (list: QueueItem[]) => QueueItem[]) => {
    const list = change(itemsRef.current);
    itemsRef.current = list;
    setItems(list);
    setBatch((previous) => nextBatch(previous, list));
  }, []);
  const patch = useCallback(
    (uid: string, values: Partial<QueueItem>) =>
      update((list) => list.map((i) => (i.uid === uid ? { ...i, ...values } : i))),
    [update],
  );
  const fadeOut = useCallback(
    (uid: string) => {
      patch(uid, { leaving: true });
      setTimeout(() => update((list) => list.filter((i) => i.uid !== uid)), fadeMs);
    },
    [patch, update],
  );

  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((c) => c.abort());
  }, []);

  const process = async (uid: string, file: File, chunkSize: number, parallel: number) => {
    const controller = controllers.current.get(uid);
    if (!controller || controller.signal.aborted) return;
    let shown = -1;
    let shownPhase: string | undefined;
    // Progress is drawn at most every `progressRedrawMs` (a new phase at once): each percent is
    // a render of the queue, and hashing moves many percents a second.
    const pace = progressPace<{ phase: 'hash' | 'upload'; percent: number }>(
      progressRedrawMs,
      (values) => patch(uid, values),
    );
    try {
      const result = await runUpload({
        file,
        id: uid,
        chunkSize,
        parallel,
        transport: createUploadTransport(url, category),
        hash: computeMd5,
        signal: controller.signal,
        saveInto: latest.current.autoSave ? (latest.current.saveCategoryId ?? 0) : undefined,
        onOutage: (outage) =>
          patch(uid, {
            notice: outage && t('files.outageRetrying', { reason: outageText(outage) }),
          }),
        onProgress: ({ phase, percent }) => {
          const rounded = Math.floor(percent) + (phase === 'upload' ? 1000 : 0);
          if (rounded === shown) return;
          shown = rounded;
          pace.push({ phase, percent: Math.floor(percent) }, phase !== shownPhase);
          shownPhase = phase;
        },
      });
      pace.cancel();
      // Removed while its last answer was on the way: the page is not handed a file it let go.
      if (controller.signal.aborted) return;
      const existing = result.saved?.existing === true;
      patch(uid, { phase: 'done', percent: 100, notice: undefined, existing });
      if (existing) toast.info(t('files.alreadyThere'));
      forgetUpload(file, category, url);
      sources.current.delete(uid);
      // What was said about an existing file stays long enough to be read.
      setTimeout(() => fadeOut(uid), existing ? existingLingerMs : doneLingerMs);
      latest.current.onUploaded?.(result);
    } catch (error) {
      pace.cancel();
      if (error instanceof UploadCancelled) return;
      const text =
        error instanceof UploadError
          ? uploadErrorText(error, t)
          : t('files.uploadError', { error: String(error) });
      const retryable = !(error instanceof UploadError) || canRetry(error);
      // One that can pass stays listed for a page loaded later; a final refusal does not.
      if (!retryable) forgetUpload(file, category, url);
      patch(uid, {
        phase: 'error',
        error: text,
        notice: undefined,
        retryable: sources.current.has(uid) && retryable,
      });
      toast.error(text);
    } finally {
      controllers.current.delete(uid);
    }
  };

  const accept = async (files: File[]) => {
    const current = props.config ?? fromPage ?? (await resolveUploadConfig(client, url, category));
    const currentRule = ruleFor(current, category);
    const chunkSize = chunkSizeOf(current);
    const parallel = parallelChunksOf(current);
    for (const file of files) {
      const key = fileKey(file);
      if (itemsRef.current.some((i) => i.key === key && active.includes(i.phase) && !i.leaving))
        continue;
      const failure = checkFile(file, currentRule);
      if (failure) {
        toast.error(checkFailureText(failure, t));
        continue;
      }
      const check = latest.current.beforeUpload;
      if (check && !(await check(file))) continue;
      const uid = `WU_FILE_${randomId()}`;
      rememberUpload(file, category, url);
      controllers.current.set(uid, new AbortController());
      sources.current.set(uid, { file, chunkSize, parallel });
      update((list) => [
        ...list.filter((i) => i.key !== key),
        { uid, key, name: file.name, phase: 'waiting', percent: 0, leaving: false },
      ]);
      chain.current = chain.current.then(() => process(uid, file, chunkSize, parallel));
    }
  };

  useImperativeHandle(props.handle, () => ({
    add: (files) => {
      if (!props.disabled) void accept([...files]);
    },
  }));

  const remove = (uid: string) => {
    controllers.current.get(uid)?.abort();
    controllers.current.delete(uid);
    const source = sources.current.get(uid);
    if (source) forgetUpload(source.file, category, url);
    sources.current.delete(uid);
    fadeOut(uid);
  };

  /** Sends a failed upload again: it resumes from the chunks the server already holds. */
  const retry = (uid: string) => {
    const source = sources.current.get(uid);
    if (!source) return;
    controllers.current.set(uid, new AbortController());
    patch(uid, { phase: 'waiting', percent: 0, error: undefined, retryable: false });
    chain.current = chain.current.then(() =>
      process(uid, source.file, source.chunkSize, source.parallel),
    );
  };

  return (
    <div className="atrium-upload" style={{ ...vars, width }}>
      <Button
        block
        icon={<UploadOutlined />}
        disabled={props.disabled}
        onClick={() => input.current?.click()}
      >
        {props.children ?? t('files.upload')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        // antd's form styles give every file input `display: block`, beating `hidden`.
        style={{ display: 'none' }}
        multiple={multiple}
        accept={acceptOf(rule)}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          void accept(files);
        }}
      />
      <InterruptedUploads
        entries={interrupted}
        disabled={props.disabled}
        onChoose={() => input.current?.click()}
        onDismiss={() => dismissInterrupted(category, url)}
      />
      <UploadQueue items={items} batch={batch} onRemove={remove} onRetry={retry} />
    </div>
  );
}
