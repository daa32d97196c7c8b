import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { tFields } from '../i18n';
import { installRangeMeasuring } from '../jsdom-layout';
import { CodeEditorField, editorHeights, jsonRule } from './code-editor-field';

vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
  installRangeMeasuring();
});
afterEach(cleanup);

/** The editor's text as CodeMirror shows it, one entry per line. */
const shownLines = (container: HTMLElement) =>
  [...container.querySelectorAll('.cm-content .cm-line')].map((line) => line.textContent);

describe('CodeEditorField', () => {
  it('is 5 to 100 lines tall whatever it is asked for', () => {
    expect(editorHeights(5, 100)).toEqual({ minHeight: '108px', maxHeight: '2008px' });
    expect(editorHeights(1, 1000)).toEqual({ minHeight: '108px', maxHeight: '2008px' });
    expect(editorHeights(12, 8)).toEqual({ minHeight: '248px', maxHeight: '248px' });
  });

  it('loads CodeMirror with the value and says the JSON is valid', async () => {
    const { container } = renderWithProviders(<CodeEditorField value={'{\n  "a": 1\n}'} />);
    await waitFor(() => expect(shownLines(container)).toEqual(['{', '  "a": 1', '}']));
    expect(screen.getByText(tFields('fields.json.valid'))).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows clearly where invalid JSON breaks, and recovers when it is fixed', async () => {
    function Harness() {
      const [value, setValue] = useState('{"a": 1,}');
      return (
        <>
          <CodeEditorField value={value} onChange={setValue} />
          <button type="button" onClick={() => setValue('{"a": 1}')}>
            fix
          </button>
        </>
      );
    }
    const { container } = renderWithProviders(<Harness />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/JSON/);
    expect(alert).toHaveTextContent(/1.*9/);
    expect(container.querySelector('.atrium-code-field')).toHaveClass('is-invalid');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'fix' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(shownLines(container)).toEqual(['{"a": 1}']));
  });

  it('reports what is typed', async () => {
    const changes: string[] = [];
    const { container } = renderWithProviders(
      <CodeEditorField value="" onChange={(v) => changes.push(v)} mode="text" />,
    );
    await waitFor(() => expect(container.querySelector('.cm-content')).not.toBeNull());
    const content = container.querySelector('.cm-content');
    if (!(content instanceof HTMLElement)) throw new Error('no editor');
    const user = userEvent.setup({ delay: null });
    await user.click(content);
    await user.keyboard('x');
    await waitFor(() => expect(changes.at(-1)).toBe('x'));
  });

  it('names its writing area and gives it the field id, as a contenteditable needs', async () => {
    renderWithProviders(<CodeEditorField id="params" aria-label="Parameters" value="{}" />);
    const area = await screen.findByRole('textbox', { name: 'Parameters' });
    expect(area).toHaveAttribute('id', 'params');
    expect(area).toHaveClass('cm-content');
  });

  it('with jsonRule, a form refuses to submit invalid JSON and names the field', async () => {
    const submitted: unknown[] = [];
    renderWithProviders(
      <Form initialValues={{ advanced: '[1, 2' }} onFinish={(v) => submitted.push(v)}>
        <Form.Item name="advanced" rules={[jsonRule('Advanced')]}>
          <CodeEditorField />
        </Form.Item>
        <Button htmlType="submit">save</Button>
      </Form>,
    );
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(
      await screen.findByText(tFields('fields.json.refused', { label: 'Advanced' })),
    ).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });
});
