// @vitest-environment happy-dom
// (antd's style rules make each style lookup of jsdom slow; see file-picker.test.tsx)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form, Input } from 'antd';
import { AppProviders } from '@/components/app-providers';
import { CaptchaField } from '@/components/captcha/captcha-field';
import { setLanguage } from '@/lib/i18n';
import { useApiStore, notLoggedInProcessor } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { installRangeMeasuring } from '../jsdom-layout';
import { RichTextField } from '../rich-text-field/rich-text-field';

vi.setConfig({ testTimeout: 60_000 });

const image =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
let server: LocalServer;

beforeAll(async () => {
  installMatchMedia();
  installResizeObserver();
  installRangeMeasuring();
  server = await startLocalServer((req, res) => {
    if (req.url === '/api/captcha/image')
      return sendJson(res, { code: 0, msg: '', data: { image } });
    sendJson(res, { code: -1, msg: 'unexpected', data: null });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  setLanguage('en');
  useApiStore.setState({ codeProcessors: [notLoggedInProcessor] });
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
});
afterEach(cleanup);

/**
 * A sign-up-like form: a required name with a hint, the captcha, a required rich text. It does
 * nothing for its errors to be said: the app's providers watch every form.
 */
function Harness() {
  return (
    <Form layout="vertical">
      <Form.Item
        name="username"
        label="Username"
        extra="3 to 20 letters"
        rules={[{ required: true, message: 'Please enter a username' }]}
      >
        <Input />
      </Form.Item>
      <CaptchaField />
      <Form.Item
        name="about"
        label="About"
        extra="Shown on the about page"
        rules={[{ required: true, message: 'Please write the about text' }]}
      >
        <RichTextField aria-label="About" />
      </Form.Item>
      <Form.Item name="note" label="Note">
        <Input />
      </Form.Item>
      <Button htmlType="submit">Save</Button>
    </Form>
  );
}

function renderForm() {
  render(
    <AppProviders>
      <Harness />
    </AppProviders>,
  );
  return userEvent.setup({ delay: null });
}

/** The texts `field`'s aria-describedby points at, in order. */
function descriptions(field: HTMLElement): string[] {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`);
}

describe('form fields for assistive technology', () => {
  it('names every field by its label alone and marks the required ones, visibly and by ARIA', async () => {
    renderForm();
    const username = screen.getByRole('textbox', { name: 'Username' });
    const captcha = screen.getByRole('textbox', { name: 'Captcha' });
    const about = await screen.findByRole('textbox', { name: 'About' });
    const note = screen.getByRole('textbox', { name: 'Note' });
    for (const field of [username, captcha, about])
      expect(field).toHaveAttribute('aria-required', 'true');
    expect(note).not.toHaveAttribute('aria-required');
    // The visible mark sits in the label, hidden from screen readers (the field says it already).
    const marks = document.querySelectorAll('.atrium-required-mark');
    expect(marks).toHaveLength(3);
    for (const mark of marks) expect(mark).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText('Note').querySelector('.atrium-required-mark')).toBeNull();
    // The rich-text box is a multi-line textbox tied to its hint.
    expect(about).toHaveAttribute('contenteditable', 'true');
    expect(about).toHaveAttribute('aria-multiline', 'true');
    expect(descriptions(about)).toEqual(['Shown on the about page']);
    expect(descriptions(username)).toEqual(['3 to 20 letters']);
  });

  it('ties each error to its field, flags the field invalid and says the errors politely', async () => {
    const user = renderForm();
    const about = await screen.findByRole('textbox', { name: 'About' });
    const username = screen.getByRole('textbox', { name: 'Username' });
    const captcha = screen.getByRole('textbox', { name: 'Captcha' });
    // The page's polite region, there from the start and empty.
    const region = document.querySelector<HTMLElement>('[data-announcer="polite"]');
    if (!region) throw new Error('no polite region in the page');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
    const writes: string[] = [];
    new MutationObserver(() => region.textContent && writes.push(region.textContent)).observe(
      region,
      { childList: true, characterData: true, subtree: true },
    );

    await user.click(screen.getByRole('button', { name: 'Save' }));

    // antd shows an error after a short debounce: wait for the text the field points at.
    await waitFor(() =>
      expect(descriptions(username)).toEqual(['Please enter a username', '3 to 20 letters']),
    );
    expect(username).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(descriptions(captcha)).toEqual(['Please enter the captcha']));
    expect(captcha).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() =>
      expect(descriptions(about)).toEqual([
        'Please write the about text',
        'Shown on the about page',
      ]),
    );
    expect(about).toHaveAttribute('aria-invalid', 'true');
    // The submit's errors are said together, once; the focus is on the first wrong field.
    await waitFor(() =>
      expect(writes).toEqual([
        'Please enter a username Please enter the captcha Please write the about text',
      ]),
    );
    expect(username).toHaveFocus();

    // Fixed, the field is valid again and no longer points at an error; nothing more is said.
    await user.type(username, 'fresh_name');
    await waitFor(() => expect(descriptions(username)).toEqual(['3 to 20 letters']));
    expect(username).not.toHaveAttribute('aria-invalid');
    // Emptied again, its error comes back and is said on its own.
    await user.clear(username);
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]).toBe('Please enter a username');
  });
});
