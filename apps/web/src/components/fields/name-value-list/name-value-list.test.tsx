import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFields } from '../i18n';
import { NameValueList, type NameValueItem } from './name-value-list';

afterEach(cleanup);

function setup(initial: NameValueItem[], max?: number) {
  const seen: NameValueItem[][] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <NameValueList
        value={value}
        max={max}
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
    );
  }
  render(<Harness />);
  return { seen, last: () => seen.at(-1), user: userEvent.setup({ delay: null }) };
}

const nameBox = (n: number) =>
  screen.getByRole('textbox', { name: `${tFields('fields.name')} ${n}` });
const valueBox = (n: number) =>
  screen.getByRole('textbox', { name: `${tFields('fields.content')} ${n}` });
const addLink = () => screen.getByRole('button', { name: new RegExp(tFields('fields.add')) });

describe('NameValueList', () => {
  it('shows each row with "Name" and "Content" placeholders and its values', () => {
    setup([
      { name: 'description', value: 'A garden' },
      { name: 'keywords', value: 'chat' },
    ]);
    expect(nameBox(1)).toHaveValue('description');
    expect(valueBox(1)).toHaveValue('A garden');
    expect(nameBox(2)).toHaveAttribute('placeholder', tFields('fields.name'));
    expect(valueBox(2)).toHaveAttribute('placeholder', tFields('fields.content'));
  });

  it('"Add" appends an empty row, typing fills it, the delete icon removes its own row', async () => {
    const { last, user } = setup([{ name: 'a', value: '1' }]);
    await user.click(addLink());
    expect(last()).toEqual([
      { name: 'a', value: '1' },
      { name: '', value: '' },
    ]);
    await user.type(nameBox(2), 'og:title');
    await user.type(valueBox(2), 'Hi');
    expect(last()).toEqual([
      { name: 'a', value: '1' },
      { name: 'og:title', value: 'Hi' },
    ]);
    await user.click(screen.getByRole('button', { name: `${tFields('fields.deleteRow')} 1` }));
    expect(last()).toEqual([{ name: 'og:title', value: 'Hi' }]);
    expect(nameBox(1)).toHaveValue('og:title');
  });

  it('stops adding at max', async () => {
    const { user, seen } = setup([{ name: 'a', value: '' }], 2);
    await user.click(addLink());
    expect(addLink()).toBeDisabled();
    expect(seen).toHaveLength(1);
  });

  it('starts empty with only the "Add" link when there is no value', () => {
    render(<NameValueList />);
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(addLink()).toBeEnabled();
  });
});
