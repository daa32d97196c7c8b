// @vitest-environment happy-dom
// (antd's style rules make each style lookup of jsdom slow; see file-picker.test.tsx)
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form, type FormInstance } from 'antd';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { tFields } from '../i18n';
import { installRangeMeasuring } from '../jsdom-layout';
import { forgetRichTextEditor, RichTextField } from './rich-text-field';

vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
  installRangeMeasuring();
});
afterEach(cleanup);

const editorBox = () => screen.findByRole('textbox');

function renderInForm(initial: string) {
  let form: FormInstance | undefined;
  const submitted: { about?: string }[] = [];
  function Harness() {
    const [instance] = Form.useForm();
    form = instance;
    return (
      <Form form={instance} initialValues={{ about: initial }} onFinish={(v) => submitted.push(v)}>
        <Form.Item name="about">
          <RichTextField placeholder="Tell visitors about the site" />
        </Form.Item>
        <Button htmlType="submit">save</Button>
      </Form>
    );
  }
  const view = renderWithProviders(<Harness />);
  const get = () => {
    if (!form) throw new Error('no form');
    return form;
  };
  return { ...view, form: get, submitted, user: userEvent.setup({ delay: null }) };
}

describe('RichTextField', () => {
  it('applies a value given before the editor is ready, once it is', async () => {
    // Whatever test file drew the editor before, this field starts without its code.
    forgetRichTextEditor();
    renderInForm('<h2>About us</h2><p>We <strong>grow</strong> things.</p>');
    // The editor's code is still loading: nothing to type into yet.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText(tFields('fields.editorLoading'))).toBeInTheDocument();
    const box = await editorBox();
    await waitFor(() =>
      expect(box.innerHTML).toBe('<h2>About us</h2><p>We <strong>grow</strong> things.</p>'),
    );
  });

  it('follows the form when the form changes the value', async () => {
    const { form } = renderInForm('');
    const box = await editorBox();
    act(() => form().setFieldsValue({ about: '<p>Loaded later</p>' }));
    await waitFor(() => expect(box.innerHTML).toBe('<p>Loaded later</p>'));
    expect(form().getFieldValue('about')).toBe('<p>Loaded later</p>');
  });

  it('reports formatting made with the toolbar to the form', async () => {
    const { form, user } = renderInForm('<p>plain</p>');
    const box = await editorBox();
    await waitFor(() => expect(box.textContent).toBe('plain'));
    await user.click(box);
    await user.keyboard('{Control>}a{/Control}');
    await user.click(screen.getByRole('button', { name: tFields('fields.rich.bold') }));
    await waitFor(() =>
      expect(form().getFieldValue('about')).toBe('<p><strong>plain</strong></p>'),
    );
    await user.click(screen.getByRole('button', { name: tFields('fields.rich.bulletList') }));
    await waitFor(() =>
      expect(form().getFieldValue('about')).toBe('<ul><li><p><strong>plain</strong></p></li></ul>'),
    );
    expect(screen.getByRole('button', { name: tFields('fields.rich.bulletList') })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('reports an editor emptied by the user as no value', async () => {
    const { form, user } = renderInForm('<p>x</p>');
    const box = await editorBox();
    await waitFor(() => expect(box.textContent).toBe('x'));
    await user.click(box);
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    await waitFor(() => expect(form().getFieldValue('about')).toBe(''));
    expect(screen.getByText('Tell visitors about the site')).toBeInTheDocument();
  });

  it('has a toolbar with headings, lists, links, quote, code and images', async () => {
    renderInForm('');
    await editorBox();
    const toolbar = screen.getByRole('toolbar', { name: tFields('fields.rich.toolbar') });
    for (const key of [
      'fields.rich.bold',
      'fields.rich.italic',
      'fields.rich.bulletList',
      'fields.rich.orderedList',
      'fields.rich.blockquote',
      'fields.rich.code',
      'fields.rich.codeBlock',
      'fields.rich.link',
      'fields.rich.image',
    ] as const) {
      expect(toolbar).toContainElement(screen.getByRole('button', { name: tFields(key) }));
    }
    expect(
      screen.getByRole('combobox', { name: tFields('fields.rich.blockType') }),
    ).toBeInTheDocument();
  });

  it('lays its popups above dialogs (z-index 10000)', async () => {
    const { user } = renderInForm('<p>link me</p>');
    const box = await editorBox();
    await waitFor(() => expect(box.textContent).toBe('link me'));
    await user.click(box);
    await user.keyboard('{Control>}a{/Control}');
    await user.click(screen.getByRole('button', { name: tFields('fields.rich.link') }));
    const dialog = await screen.findByRole('dialog');
    const wrap = dialog.closest('.ant-modal-wrap');
    expect(wrap instanceof HTMLElement ? Number(wrap.style.zIndex) : 0).toBeGreaterThanOrEqual(
      10000,
    );
  });

  it('works as a controlled field, never reporting a value it was given as an edit', async () => {
    const edits: string[] = [];
    function Controlled() {
      const [html, setHtml] = useState('<p>one</p>');
      return (
        <>
          <RichTextField
            value={html}
            onChange={(next) => {
              edits.push(next);
              setHtml(next);
            }}
          />
          <button type="button" onClick={() => setHtml('<p>two</p>')}>
            swap
          </button>
        </>
      );
    }
    renderWithProviders(<Controlled />);
    const box = await editorBox();
    await waitFor(() => expect(box.innerHTML).toBe('<p>one</p>'));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'swap' }));
    await waitFor(() => expect(box.innerHTML).toBe('<p>two</p>'));
    expect(edits).toEqual([]);
  });
});
