import { useMemo, useState } from 'react';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Flex,
  Form,
  InputNumber,
  Row,
  Select,
  Statistic,
  Table,
  theme,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChatQuota, UsageResponse, UsageTotals } from '@atrium/shared/contract/chat';
import { BudgetFields } from '@/components/fields/budget-fields';
import { useQuota, useSaveQuota, useUsageSummary } from '../api/usage';
import { useChatT } from '../i18n';

dayjs.extend(utc);

const DEFAULT_DAYS = 14;
const dayFormat = 'YYYY-MM-DD';

/** Every UTC day from `from` to `to`, with zeros for days without usage, so the chart has no holes. */
export function fillDays(
  from: string,
  to: string,
  byDay: UsageResponse['byDay'],
): UsageResponse['byDay'] {
  const known = new Map(byDay.map((d) => [d.day, d]));
  const days: UsageResponse['byDay'] = [];
  const end = dayjs.utc(to);
  for (let day = dayjs.utc(from); !day.isAfter(end) && days.length < 400; day = day.add(1, 'day')) {
    const key = day.format(dayFormat);
    days.push(
      known.get(key) ?? {
        day: key,
        messages: 0,
        promptTokens: 0,
        completionTokens: 0,
        tokens: 0,
        cost: 0,
      },
    );
  }
  return days;
}

/** A cost in the site's currency: two decimals, more when it is smaller than a cent. */
const money = (value: number) =>
  value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 });

function QuotaCard() {
  const t = useChatT();
  const quota = useQuota();
  const save = useSaveQuota();
  const [form] = Form.useForm<ChatQuota>();
  return (
    <Card title={t('usage.quota')} loading={quota.isLoading}>
      <Typography.Paragraph type="secondary">{t('usage.quotaHint')}</Typography.Paragraph>
      {quota.data && (
        <Form<ChatQuota>
          form={form}
          layout="vertical"
          initialValues={quota.data}
          onFinish={(values) => save.mutate(values)}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="messagesPerDay" label={t('usage.messagesPerDay')}>
                <InputNumber min={0} max={1_000_000} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="messagesPerMinute" label={t('usage.messagesPerMinute')}>
                <InputNumber min={0} max={10_000} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Text strong>{t('usage.budget')}</Typography.Text>
          <Typography.Paragraph type="secondary">{t('usage.budgetHint')}</Typography.Paragraph>
          <BudgetFields />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('usage.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}

/** One usage breakdown (by room, by member): a label column, then messages and tokens. */
function UsageTable<Row extends UsageTotals>(props: {
  title: string;
  rowKey: keyof Row & string;
  labelTitle: string;
  label: (row: Row) => string;
  rows: Row[] | undefined;
  loading: boolean;
}) {
  const t = useChatT();
  return (
    <Card title={props.title} styles={{ body: { padding: 0 } }}>
      <Table<Row>
        rowKey={props.rowKey}
        size="small"
        pagination={false}
        loading={props.loading}
        dataSource={props.rows ?? []}
        columns={[
          {
            title: props.labelTitle,
            key: 'label',
            render: (_: unknown, row: Row) => props.label(row),
          },
          { title: t('usage.messages'), dataIndex: 'messages', key: 'messages' },
          {
            title: t('usage.tokens'),
            key: 'tokens',
            render: (_: unknown, row: Row) => row.tokens.toLocaleString(),
          },
          {
            title: t('usage.cost'),
            key: 'cost',
            render: (_: unknown, row: Row) => money(row.cost),
          },
        ]}
      />
    </Card>
  );
}

/** The admin usage page: totals, a chart by day, tables by room and member, and the quotas. */
export function UsagePanel() {
  const t = useChatT();
  const { token } = theme.useToken();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs.utc().subtract(DEFAULT_DAYS - 1, 'day'),
    dayjs.utc(),
  ]);
  const [roomId, setRoomId] = useState(0);
  const query = {
    from: range[0].format(dayFormat),
    to: range[1].format(dayFormat),
    roomId,
    memberId: 0,
  };
  const usage = useUsageSummary(query);
  const data = usage.data;
  const days = useMemo(
    () => fillDays(query.from, query.to, data?.byDay ?? []),
    [query.from, query.to, data],
  );
  // The filter offers every room with usage in the range, also while one room is selected.
  const unfiltered = useUsageSummary({ ...query, roomId: 0 });
  const roomOptions = (unfiltered.data?.byRoom ?? []).map((r) => ({
    value: r.roomId,
    label: r.title || t('usage.deletedRoom', { id: r.roomId }),
  }));

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} wrap align="center">
        <Typography.Text type="secondary">{t('usage.range')}</Typography.Text>
        <DatePicker.RangePicker
          allowClear={false}
          value={range}
          onChange={(value) => {
            if (value?.[0] && value[1]) setRange([value[0], value[1]]);
          }}
        />
        <Select
          style={{ minWidth: 200 }}
          value={roomId}
          onChange={setRoomId}
          options={[{ value: 0, label: t('usage.allRooms') }, ...roomOptions]}
          aria-label={t('usage.room')}
        />
      </Flex>
      <Row gutter={[16, 16]}>
        {(
          [
            ['usage.messages', data?.totals.messages],
            ['usage.tokens', data?.totals.tokens],
            ['usage.promptTokens', data?.totals.promptTokens],
            ['usage.completionTokens', data?.totals.completionTokens],
          ] as const
        ).map(([key, value]) => (
          <Col xs={12} md={8} xl={5} key={key}>
            <Card>
              <Statistic title={t(key)} value={value ?? 0} loading={usage.isLoading} />
            </Card>
          </Col>
        ))}
        <Col xs={12} md={8} xl={4}>
          <Card>
            <Statistic
              title={t('usage.cost')}
              value={money(data?.totals.cost ?? 0)}
              loading={usage.isLoading}
            />
          </Card>
        </Col>
      </Row>
      <Card title={t('usage.byDay')}>
        {data && data.totals.messages === 0 ? (
          <Empty description={t('usage.empty')} />
        ) : (
          <div style={{ width: '100%', height: 300 }} data-testid="usage-chart">
            <ResponsiveContainer>
              <BarChart data={days} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke={token.colorBorderSecondary} />
                <XAxis
                  dataKey="day"
                  tickFormatter={(d: string) => d.slice(5)}
                  stroke={token.colorTextSecondary}
                />
                <YAxis yAxisId="messages" allowDecimals={false} stroke={token.colorTextSecondary} />
                <YAxis yAxisId="tokens" orientation="right" stroke={token.colorTextSecondary} />
                <Tooltip />
                <Legend />
                <Bar
                  yAxisId="messages"
                  dataKey="messages"
                  name={t('usage.messages')}
                  fill={token.colorPrimary}
                />
                <Bar yAxisId="tokens" dataKey="tokens" name={t('usage.tokens')} fill="#13c2c2" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <UsageTable
            title={t('usage.byRoom')}
            rowKey="roomId"
            labelTitle={t('usage.room')}
            label={(r) => r.title || t('usage.deletedRoom', { id: r.roomId })}
            rows={data?.byRoom}
            loading={usage.isFetching}
          />
        </Col>
        <Col xs={24} lg={12}>
          <UsageTable
            title={t('usage.byMember')}
            rowKey="memberId"
            labelTitle={t('usage.member')}
            label={(m) => m.username || t('usage.deletedMember', { id: m.memberId })}
            rows={data?.byMember}
            loading={usage.isFetching}
          />
        </Col>
      </Row>
      <QuotaCard />
    </Flex>
  );
}
