import { toast } from './feedback';

/**
 * An event handler for async work whose promise the component ignores (a button's onClick, a
 * form's onFinish). A failure the work did not handle itself still reaches the user as a toast.
 */
export function asyncHandler<A extends unknown[]>(
  work: (...args: A) => Promise<unknown>,
): (...args: A) => void {
  return (...args) => {
    work(...args).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
    });
  };
}

/**
 * For antd's Popconfirm `onConfirm`, which waits on a returned promise (its OK button spins until
 * it settles) though its type says void. Failures are the caller's to show (a mutation's onError);
 * the promise handed over never rejects, so the confirm closes either way.
 */
export function confirmAction(work: () => Promise<unknown>): () => void {
  const settled = () =>
    work().then(
      () => undefined,
      () => undefined,
    );
  // antd awaits what onConfirm returns; its declared type only leaves the promise unmentioned.
  return settled as () => void;
}
