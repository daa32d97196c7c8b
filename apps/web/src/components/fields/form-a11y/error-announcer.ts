import { announce } from '@/lib/announce';

const ERROR = '.ant-form-item-explain-error';
const EXPLAIN = '.ant-form-item-explain';

/** Whether a change touched a form field's error text (an error shown, or its words changed). */
function touchesErrors(record: MutationRecord): boolean {
  const target = record.target instanceof Element ? record.target : record.target.parentElement;
  if (target?.closest(EXPLAIN)) return true;
  if (record.type === 'attributes') return true;
  return [...record.addedNodes].some(
    (node) => node instanceof Element && (node.matches(ERROR) || node.querySelector(ERROR)),
  );
}

/**
 * Whether the field an error text belongs to is in error now: the text may linger a moment after
 * the field was corrected, while it fades out; the field's own `aria-invalid` says it at once.
 */
function inError(root: HTMLElement, error: Element): boolean {
  const id = error.closest(EXPLAIN)?.id;
  if (!id) return true;
  return (
    root.querySelector(`[aria-invalid="true"][aria-describedby~="${CSS.escape(id)}"]`) !== null
  );
}

/**
 * Reads every form's field errors out to screen readers, on every page and in every dialog: an
 * error that appears (or changes its words) is said once through the page's polite region, those
 * of one submit together; a corrected one leaves without a word. The visible error stays under
 * its field, which antd ties to it (`aria-describedby`, `aria-invalid`). The app starts it once.
 */
export function watchFormErrors(root: HTMLElement = document.body): () => void {
  // The errors shown at the last look, by element: one still shown is not said again.
  let shown = new Map<Element, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A submit says every error shown after it, even one already said: the person asked again.
  let submitted = false;
  const speak = () => {
    const now = new Map<Element, string>();
    const fresh: string[] = [];
    for (const error of root.querySelectorAll(ERROR)) {
      const text = error.textContent?.trim() ?? '';
      if (text === '' || !inError(root, error)) continue;
      now.set(error, text);
      if ((submitted || shown.get(error) !== text) && !fresh.includes(text)) fresh.push(text);
    }
    shown = now;
    submitted = false;
    if (fresh.length > 0) announce(fresh.join(' '));
  };
  // The errors of a submit appear after antd's validation (a few renders, or none when they are
  // the same as before): the look after a submit waits for them.
  const onSubmit = () => {
    submitted = true;
    clearTimeout(timer);
    timer = setTimeout(speak, 300);
  };
  root.addEventListener('submit', onSubmit, true);
  const observer = new MutationObserver((records) => {
    if (!records.some(touchesErrors)) return;
    // The errors of one submit appear over a few renders: they are said together.
    clearTimeout(timer);
    timer = setTimeout(speak, 100);
  });
  observer.observe(root, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['aria-invalid'],
  });
  return () => {
    clearTimeout(timer);
    root.removeEventListener('submit', onSubmit, true);
    observer.disconnect();
  };
}
