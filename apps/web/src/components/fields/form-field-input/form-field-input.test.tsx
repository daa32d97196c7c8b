// @vitest-environment happy-dom
// (antd's style rules make each style lookup of jsdom slow; see file-picker.test.tsx)
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { tFields } from '../i18n';
import { FormFieldInput, FormFieldItem, type FormFieldItemProps } from './form-field-input';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
});
afterEach(cleanup);

function setup(props: Omit<FormFieldItemProps, 'name'>) {
  const submitted: Record<string, unknown>[] = [];
  renderWithProviders(
    <Form onFinish={(values: Record<string, unknown>) => submitted.push(values)}>
      <FormFieldItem name="field" {...props} />
      <Button htmlType="submit">save</Button>
    </Form>,
  );
  const user = userEvent.setup({ delay: null });
  return {
    submitted,
    user,
    submit: () => user.click(screen.getByRole('button', { name: 'save' })),
  };
}

describe('FormFieldInput', () => {
  it('a required empty text names the field and blocks the submit', async () => {
    const { submitted, submit } = setup({ data: { title: 'Site name' }, isRequired: true });
    await submit();
    expect(
      await screen.findByText(tFields('fields.input.required', { label: 'Site name' })),
    ).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('whitespace alone is still empty', async () => {
    const { submitted, submit, user } = setup({ data: { title: 'Name' }, isRequired: true });
    await user.type(screen.getByRole('textbox'), '   ');
    await submit();
    expect(
      await screen.findByText(tFields('fields.input.required', { label: 'Name' })),
    ).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('text over textLength (50 by default) is refused with the limit and the length', async () => {
    const { submitted, submit, user } = setup({ data: { title: 'Motto' } });
    const box = screen.getByRole('textbox');
    await user.click(box);
    await user.paste('x'.repeat(51));
    await submit();
    expect(
      await screen.findByText(
        tFields('fields.input.tooLong', { label: 'Motto', max: 50, length: 51 }),
      ),
    ).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
    await user.click(box);
    await user.keyboard('{End}{Backspace}');
    await submit();
    await waitFor(() => expect(submitted).toEqual([{ field: 'x'.repeat(50) }]));
  });

  it('honours a smaller textLength and counts characters, not UTF-16 units', async () => {
    const { submitted, submit, user } = setup({ data: { title: 'Tag' }, textLength: 3 });
    await user.click(screen.getByRole('textbox'));
    await user.paste('😀😀😀');
    await submit();
    await waitFor(() => expect(submitted).toEqual([{ field: '😀😀😀' }]));
  });

  it('starts from defaultValue and shows the placeholder', async () => {
    const { submitted, submit } = setup({
      data: { title: 'City' },
      defaultValue: 'Lisbon',
      placeholder: 'Where?',
    });
    expect(screen.getByRole('textbox')).toHaveValue('Lisbon');
    expect(screen.getByRole('textbox')).toHaveAttribute('placeholder', 'Where?');
    await submit();
    await waitFor(() => expect(submitted).toEqual([{ field: 'Lisbon' }]));
  });

  it('offers the options as radio choices and requires one', async () => {
    const { submitted, submit, user } = setup({
      data: { type: 'radio', title: 'Size' },
      option: ['S', 'M', 'L'],
      isRequired: true,
    });
    await submit();
    expect(
      await screen.findByText(tFields('fields.input.requiredChoice', { label: 'Size' })),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'M' }));
    await submit();
    await waitFor(() => expect(submitted).toEqual([{ field: 'M' }]));
  });

  it('checkbox options give a list', async () => {
    const { submitted, submit, user } = setup({
      data: { type: 'checkbox', title: 'Days' },
      option: ['Mon', 'Tue', 'Wed'],
    });
    await user.click(screen.getByRole('checkbox', { name: 'Wed' }));
    await user.click(screen.getByRole('checkbox', { name: 'Mon' }));
    await submit();
    await waitFor(() => expect(submitted).toEqual([{ field: ['Mon', 'Wed'] }]));
  });

  it('works alone as a controlled input', async () => {
    const changes: unknown[] = [];
    renderWithProviders(
      <FormFieldInput
        data={{ type: 'textarea' }}
        value="hello"
        onChange={(v) => changes.push(v)}
      />,
    );
    await userEvent.setup({ delay: null }).type(screen.getByRole('textbox'), '!');
    expect(changes).toEqual(['hello!']);
  });
});
