import { createElement } from 'react';
import type { ModalFuncProps } from 'antd';
import type { MessageInstance, NoticeType } from 'antd/es/message/interface';
import { create } from 'zustand';
import { Limits } from '@atrium/shared/limits';
import { t } from './i18n';

/**
 * Toasts and dialogs callable from anywhere (API client, stores). Toasts go through the message
 * holder that FeedbackBridge mounts inside the theme and locale providers; one asked while no
 * holder is mounted (before the first render, or an answer landing after its page was left) waits
 * for the next holder. antd's static message is not used: its own React root and timers outlive
 * the page's tree (a toast counting down after the page went set state on a page without a
 * window). Dialogs queue here and are opened by a dialog host that the bridge loads on first
 * use, which keeps antd's Modal out of the first page load.
 */
let boundMessage: MessageInstance | null = null;

interface WaitingToast {
  type: NoticeType;
  content: string;
  duration: number;
}

/** Toasts asked while no holder was mounted, the latest few (older ones would only pile up). */
export const useToastQueue = create<{ waiting: WaitingToast[] }>(() => ({ waiting: [] }));
const waitingToastsKept = 3;

export function bindMessage(api: MessageInstance | null): void {
  boundMessage = api;
  if (!api) return;
  const { waiting } = useToastQueue.getState();
  if (waiting.length === 0) return;
  useToastQueue.setState({ waiting: [] });
  for (const notice of waiting) void api.open(notice);
}

/** SPEC 9: 2 s by default; a message longer than 10 characters lasts floor(length / 5) s. */
export function toastSeconds(text: string): number {
  const length = Array.from(text).length;
  return length > 10 ? Math.floor(length / 5) : Limits.toastDefaultMs / 1000;
}

function show(type: NoticeType, text: string, seconds?: number): void {
  const notice = { type, content: text, duration: seconds ?? toastSeconds(text) };
  if (boundMessage) {
    void boundMessage.open(notice);
    return;
  }
  useToastQueue.setState((s) => ({ waiting: [...s.waiting, notice].slice(-waitingToastsKept) }));
}

export const toast = {
  success: (text: string, seconds?: number) => show('success', text, seconds),
  error: (text: string, seconds?: number) => show('error', text, seconds),
  info: (text: string, seconds?: number) => show('info', text, seconds),
  warning: (text: string, seconds?: number) => show('warning', text, seconds),
};

export interface DialogRequest {
  id: number;
  kind: 'confirm' | 'info';
  props: ModalFuncProps;
}

/** Dialogs asked for and not yet opened by the host. */
export const useDialogQueue = create<{ queue: DialogRequest[] }>(() => ({ queue: [] }));

let nextDialogId = 1;
let hostAvailable = false;

/** FeedbackBridge announces itself; without it (outside the app) dialogs use antd's static Modal. */
export function setDialogHostAvailable(available: boolean): void {
  hostAvailable = available;
}

function openDialog(kind: DialogRequest['kind'], props: ModalFuncProps): void {
  if (!hostAvailable) {
    void import('antd/es/modal').then(({ default: Modal }) => Modal[kind](props));
    return;
  }
  const request = { id: nextDialogId++, kind, props };
  useDialogQueue.setState((s) => ({ queue: [...s.queue, request] }));
}

/** Takes every queued dialog off the queue (the host opens each exactly once). */
export function takeDialogs(): DialogRequest[] {
  const { queue } = useDialogQueue.getState();
  if (queue.length > 0) useDialogQueue.setState({ queue: [] });
  return queue;
}

export interface DialogOptions {
  title?: string;
  okText?: string;
  cancelText?: string;
  danger?: boolean;
  /** Focus starts on Cancel, the safe answer (Enter then keeps what is there). */
  focusCancel?: boolean;
  /** A second paragraph under the message (where to act on it). */
  detail?: string;
}

/** The message, and its detail as a paragraph of its own. */
const withDetail = (content: string, detail: string | undefined) =>
  detail
    ? createElement(
        'div',
        null,
        createElement('p', null, content),
        createElement('p', null, detail),
      )
    : content;

/** A confirm dialog titled "提示"; resolves true on OK, false on cancel or close. */
export function confirmDialog(content: string, options: DialogOptions = {}): Promise<boolean> {
  return new Promise((resolve) => {
    openDialog('confirm', {
      title: options.title ?? t('dialog.title'),
      content,
      okText: options.okText ?? t('dialog.ok'),
      cancelText: options.cancelText ?? t('dialog.cancel'),
      okButtonProps: options.danger ? { danger: true } : undefined,
      focusable: { autoFocusButton: options.focusCancel ? 'cancel' : 'ok' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** An alert dialog titled "提示"; resolves when closed. */
export function alertDialog(content: string, options: DialogOptions = {}): Promise<void> {
  return new Promise((resolve) => {
    openDialog('info', {
      title: options.title ?? t('dialog.title'),
      content: withDetail(content, options.detail),
      okText: options.okText ?? t('dialog.ok'),
      onOk: () => resolve(),
      onCancel: () => resolve(),
    });
  });
}
