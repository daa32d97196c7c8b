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

/** How long the errors must be still before they are said. */
const QUIET = 100;
/** How long after a submit its errors are first looked at (antd validates over a few renders). */
const SUBMIT_WAIT = 300;
/** What a person does that ends a submit's answer (the focus a submit moves is not one). */
const DOINGS = ['input', 'keydown', 'pointerdown'] as const;

/** The user's doings after which a form may show errors: a form seen then is watched from then on. */
const EVENTS = ['submit', 'focusin', 'click', 'input'] as const;

/**
 * Reads every form's field errors out to screen readers, on every page and in every dialog: an
 * error that appears (or changes its words) is said once through the page's polite region, those
 * of one submit together; a corrected one leaves without a word. The visible error stays under
 * its field, which antd ties to it (`aria-describedby`, `aria-invalid`). The app starts it once.
 *
 * Only forms are watched, not the page: a form's errors follow something the person did (a
 * submit, a focus, a click, a key), so the forms in the page at each of those are watched from
 * then on, and a change elsewhere (an answer streaming in, a list scrolling) costs nothing.
 */
export function watchFormErrors(root: HTMLElement = document.body): () => void {
  // The errors shown at the last look, by element: one still shown is not said again.
  let shown = new Map<Element, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A submit says every error shown after it, even one already said: the person asked again.
  let submitted = false;
  // The last submit: its form and when. Its errors may show over several renders, far apart on
  // a busy page; a look that finds late ones before the person does anything else says the
  // form's errors again together, so the region holds the submit's whole answer.
  let lastSubmit: { form: HTMLFormElement | null; at: number } = { form: null, at: -Infinity };
  const forms = new Set<HTMLFormElement>();
  const speak = () => {
    const now = new Map<Element, string>();
    const fresh: string[] = [];
    const ofSubmit: string[] = [];
    for (const form of forms) {
      if (!form.isConnected) {
        forms.delete(form);
        continue;
      }
      for (const error of form.querySelectorAll(ERROR)) {
        const text = error.textContent?.trim() ?? '';
        if (text === '' || !inError(form, error)) continue;
        now.set(error, text);
        if ((submitted || shown.get(error) !== text) && !fresh.includes(text)) fresh.push(text);
        if (form === lastSubmit.form && !ofSubmit.includes(text)) ofSubmit.push(text);
      }
    }
    shown = now;
    submitted = false;
    if (fresh.length === 0) return;
    // After a submit, its form's errors come first, then any other form's new ones.
    announce([...ofSubmit, ...fresh.filter((t) => !ofSubmit.includes(t))].join(' '));
  };
  // An error corrected and brought back within one look's wait is said again: the look that
  // would have seen it corrected may come only after it is back (a busy page), so each change
  // forgets at once the errors it took away.
  const forgetCorrected = () => {
    for (const [error, text] of shown) {
      const form = error.closest('form');
      const still = form !== null && error.textContent?.trim() === text && inError(form, error);
      if (!still) shown.delete(error);
    }
  };
  const observer = new MutationObserver((records) => {
    if (!records.some(touchesErrors)) return;
    forgetCorrected();
    // The errors of one submit appear over a few renders: they are said together, and not
    // before the submit's own wait is over.
    clearTimeout(timer);
    timer = setTimeout(speak, Math.max(QUIET, lastSubmit.at + SUBMIT_WAIT - Date.now()));
  });
  const watchForms = () => {
    for (const form of root.querySelectorAll('form')) {
      if (forms.has(form)) continue;
      forms.add(form);
      observer.observe(form, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['aria-invalid'],
      });
    }
  };
  // The errors of a submit appear after antd's validation (a few renders, or none when they are
  // the same as before): the look after a submit waits for them.
  const onSubmit = (event: Event) => {
    watchForms();
    submitted = true;
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    lastSubmit = { form, at: Date.now() };
    clearTimeout(timer);
    timer = setTimeout(speak, SUBMIT_WAIT);
  };
  // A key, a click or typing after the submit ends it: errors from then on follow the person's
  // doing and are said alone.
  const endSubmit = () => {
    lastSubmit = { form: null, at: -Infinity };
  };
  const listener = (type: (typeof EVENTS)[number]) => (type === 'submit' ? onSubmit : watchForms);
  for (const type of EVENTS) root.addEventListener(type, listener(type), true);
  for (const type of DOINGS) root.addEventListener(type, endSubmit, true);
  return () => {
    clearTimeout(timer);
    for (const type of EVENTS) root.removeEventListener(type, listener(type), true);
    for (const type of DOINGS) root.removeEventListener(type, endSubmit, true);
    observer.disconnect();
    forms.clear();
  };
}
