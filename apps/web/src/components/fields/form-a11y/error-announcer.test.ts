// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountAnnouncer } from '@/lib/announce';
import { watchFormErrors } from './error-announcer';

/** What the polite region says after the watcher's wait and the region's own. */
async function said(): Promise<string> {
  await vi.advanceTimersByTimeAsync(500);
  return document.querySelector('[data-announcer="polite"]')?.textContent ?? '';
}

/** A field's error as antd shows it: an explain block the invalid field points at. */
function showError(form: HTMLElement, text: string, field = 'name') {
  const input = form.querySelector(`input[name="${field}"]`);
  input?.setAttribute('aria-invalid', 'true');
  input?.setAttribute('aria-describedby', `${field}_help`);
  const explain = document.createElement('div');
  explain.className = 'ant-form-item-explain';
  explain.id = `${field}_help`;
  explain.innerHTML = `<div class="ant-form-item-explain-error">${text}</div>`;
  form.append(explain);
}

let observed: Node[];
let unwatch: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = '<main><p id="answer"></p></main><form><input name="name"></form>';
  mountAnnouncer();
  observed = [];
  const observe = MutationObserver.prototype.observe;
  vi.spyOn(MutationObserver.prototype, 'observe').mockImplementation(function (
    this: MutationObserver,
    target,
    options,
  ) {
    observed.push(target);
    observe.call(this, target, options);
  });
  unwatch = watchFormErrors();
});

afterEach(() => {
  unwatch();
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the form-error watcher', () => {
  it('watches the forms a person touches, never the page: a change outside a form is not looked at', async () => {
    const form = document.querySelector('form');
    const answer = document.getElementById('answer');
    if (!form || !answer) throw new Error('no page');
    expect(observed).toEqual([]);

    form.querySelector('input')?.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(observed).toEqual([form]);

    // An answer streaming in outside the form, even text that looks like a field error there.
    for (let i = 0; i < 20; i++) answer.append(`token${i} `);
    answer.innerHTML += '<div class="ant-form-item-explain-error">Not a form error</div>';
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(observed).toEqual([form]);
    expect(await said()).toBe('');

    showError(form, 'Please enter a name');
    expect(await said()).toBe('Please enter a name');
  });

  it('finds a form on its submit and says its errors again when asked again', async () => {
    const form = document.querySelector('form');
    if (!form) throw new Error('no form');
    showError(form, 'Please enter a name');
    // Not watched before the submit: nothing was said.
    expect(await said()).toBe('');
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(observed).toEqual([form]);
    expect(await said()).toBe('Please enter a name');
  });

  it('says an error again when it is corrected and back before the look that would have seen it gone', async () => {
    const form = document.querySelector('form');
    const input = form?.querySelector('input');
    const region = document.querySelector('[data-announcer="polite"]');
    if (!form || !input || !region) throw new Error('no page');
    input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    showError(form, 'Please enter a name');
    expect(await said()).toBe('Please enter a name');
    region.textContent = '';

    // Corrected (the text lingers while it fades), then emptied again at once, on a busy page.
    input.removeAttribute('aria-invalid');
    await vi.advanceTimersByTimeAsync(10);
    input.setAttribute('aria-invalid', 'true');
    expect(await said()).toBe('Please enter a name');
  });

  it("says a submit's errors together even when some show long after the others (a busy page)", async () => {
    const form = document.querySelector('form');
    if (!form) throw new Error('no form');
    form.insertAdjacentHTML('beforeend', '<input name="mail">');
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    // One error soon after the submit, the next only after the first was said.
    await vi.advanceTimersByTimeAsync(50);
    showError(form, 'Please enter a name');
    expect(await said()).toBe('Please enter a name');
    // However late (a very busy page): nothing was done since the submit.
    await vi.advanceTimersByTimeAsync(5000);
    showError(form, 'Please enter an e-mail', 'mail');
    expect(await said()).toBe('Please enter a name Please enter an e-mail');

    // The person types: an error of the typing is said alone.
    form.querySelector('input[name="mail"]')?.dispatchEvent(new Event('input', { bubbles: true }));
    form.querySelector('#mail_help div')?.replaceChildren('Not an e-mail address');
    expect(await said()).toBe('Not an e-mail address');
  });
});
