import { Col, Form, InputNumber, Row } from 'antd';
import { costDecimals, decimalsOf } from '@atrium/shared/contract/chat-limits';
import { useFieldsT } from './i18n';

/**
 * A budget's four limits (issue 18): tokens and cost per UTC day and month, 0 for none. Under
 * `prefix` in the form (the room's `budget`), or at its top (the members' quota).
 */
export function BudgetFields({ prefix = [] }: { prefix?: string[] }) {
  const t = useFieldsT();
  const tokens = (name: string, label: string) => (
    <Col xs={24} sm={12} lg={6}>
      <Form.Item name={[...prefix, name]} label={label}>
        <InputNumber min={0} max={2_000_000_000} step={1000} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  // Kept as typed (0.005 stays 0.005): no display precision that would round it on blur; finer
  // than the budgets count is refused here and by the server, naming the precision.
  const cost = (name: string, label: string) => (
    <Col xs={24} sm={12} lg={6}>
      <Form.Item
        name={[...prefix, name]}
        label={label}
        rules={[
          {
            validator: (_, value: unknown) =>
              typeof value === 'number' && decimalsOf(value) > costDecimals
                ? Promise.reject(new Error(t('fields.budgetCostPrecision', { max: costDecimals })))
                : Promise.resolve(),
          },
        ]}
      >
        <InputNumber min={0} max={1_000_000} step={0.01} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={16}>
      {tokens('tokensPerDay', t('fields.budgetTokensPerDay'))}
      {tokens('tokensPerMonth', t('fields.budgetTokensPerMonth'))}
      {cost('costPerDay', t('fields.budgetCostPerDay'))}
      {cost('costPerMonth', t('fields.budgetCostPerMonth'))}
    </Row>
  );
}
