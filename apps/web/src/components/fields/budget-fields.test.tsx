import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { renderWithFreshCache } from '@/test-utils/render';
import { BudgetFields } from './budget-fields';

afterEach(() => {
  cleanup();
  act(() => setLanguage('zh-CN'));
});

function setup() {
  const saved: unknown[] = [];
  renderWithFreshCache(
    <Form onFinish={(values) => saved.push(values)}>
      <BudgetFields />
      <Button htmlType="submit">save</Button>
    </Form>,
  );
  return { saved, user: userEvent.setup({ delay: null }) };
}

describe('BudgetFields', () => {
  it('keeps a cost limit as typed: 0.005 is saved as 0.005, not rounded to 0.01', async () => {
    const { saved, user } = setup();
    const cost = screen.getByLabelText('每日费用');
    await user.type(cost, '0.005');
    await user.tab();
    expect(cost).toHaveValue('0.005');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(saved).toEqual([expect.objectContaining({ costPerDay: 0.005 })]));
  });

  it('refuses a cost finer than the budgets count, naming the precision, in both languages', async () => {
    act(() => setLanguage('en'));
    const { saved, user } = setup();
    await user.type(screen.getByLabelText('Cost per month'), '1.1234567');
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(await screen.findByText('A cost takes at most 6 decimals')).toBeInTheDocument();
    expect(saved).toEqual([]);
    cleanup();
    act(() => setLanguage('zh-CN'));
    const again = setup();
    await again.user.type(screen.getByLabelText('每日费用'), '0.0000001');
    await again.user.click(screen.getByRole('button', { name: 'save' }));
    expect(await screen.findByText('费用最多保留 6 位小数')).toBeInTheDocument();
  });
});
