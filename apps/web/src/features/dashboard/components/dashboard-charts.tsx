import { Card, Col, Empty, Row, Typography, theme } from 'antd';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DashboardStats, DayCount } from '@atrium/shared/contract/dashboard';
import { formatSize } from '@/components/file-library/file-picker/file-record';
import { dayWindow, shortDate, type DayWindow } from '../day-window';
import { useDashboardT } from '../i18n';

/**
 * The dashboard's charts. This module (and recharts with it) is loaded on its own, after the
 * numbers, so the charting library never weighs on the first load of the admin app.
 */

const chartHeight = 260;
/** Room on the right for the last day's label, centred on the chart's last point. */
const chartMargin = { top: 8, right: 24, left: -16, bottom: 0 };

function DayChart({
  days,
  span,
  color,
  name,
  kind,
}: {
  days: DayCount[];
  /** The window both per-day charts share: the same first, last and labelled days. */
  span: DayWindow;
  color: string;
  name: string;
  kind: 'bar' | 'area';
}) {
  const { token } = theme.useToken();
  const axis = { fontSize: 12, fill: token.colorTextSecondary };
  const tooltip = (
    <Tooltip
      contentStyle={{
        background: token.colorBgElevated,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
      }}
    />
  );
  // Given ticks, every one shown: left to itself each chart type thinned its labels differently.
  const xAxis = (
    <XAxis dataKey="date" ticks={span.ticks} interval={0} tickFormatter={shortDate} tick={axis} />
  );
  return (
    <ResponsiveContainer width="100%" height={chartHeight}>
      {kind === 'bar' ? (
        <BarChart data={days} margin={chartMargin}>
          <CartesianGrid
            strokeDasharray="3 3"
            vertical={false}
            stroke={token.colorBorderSecondary}
          />
          {xAxis}
          <YAxis allowDecimals={false} tick={axis} />
          {tooltip}
          <Bar dataKey="count" name={name} fill={color} radius={[4, 4, 0, 0]} maxBarSize={18} />
        </BarChart>
      ) : (
        <AreaChart data={days} margin={chartMargin}>
          <defs>
            <linearGradient id="signups-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={color} stopOpacity={0.35} />
              <stop offset="100%" stopColor={color} stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <CartesianGrid
            strokeDasharray="3 3"
            vertical={false}
            stroke={token.colorBorderSecondary}
          />
          {xAxis}
          <YAxis allowDecimals={false} tick={axis} />
          {tooltip}
          <Area
            type="monotone"
            dataKey="count"
            name={name}
            stroke={color}
            strokeWidth={2}
            fill="url(#signups-fill)"
          />
        </AreaChart>
      )}
    </ResponsiveContainer>
  );
}

function StorageChart({ stats }: { stats: DashboardStats }) {
  const t = useDashboardT();
  const { token } = theme.useToken();
  const colors = [token.colorPrimary, token.colorInfo, token.colorWarning, token.colorSuccess];
  const data = stats.storageByLibrary.map((l) => ({
    name: t(`dashboardStats.library.${l.library}`),
    bytes: l.bytes,
    files: l.files,
  }));
  if (stats.counts.storageBytes === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('dashboardStats.noFiles')}
        style={{ height: chartHeight, display: 'grid', placeContent: 'center' }}
      />
    );
  }
  return (
    <ResponsiveContainer width="100%" height={chartHeight}>
      <PieChart>
        <Pie
          data={data.map((entry, i) => ({ ...entry, fill: colors[i % colors.length] }))}
          dataKey="bytes"
          nameKey="name"
          innerRadius={58}
          outerRadius={92}
          paddingAngle={2}
          stroke="none"
        />
        <Tooltip
          formatter={(value, _name, item) => [
            `${formatSize(Number(value))} · ${t('dashboardStats.filesCount', {
              count: (item.payload as { files: number }).files,
            })}`,
          ]}
          contentStyle={{
            background: token.colorBgElevated,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
          }}
        />
        <Legend
          formatter={(value: string, entry) => {
            const bytes = (entry.payload as { bytes?: number } | undefined)?.bytes ?? 0;
            return (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {value} {formatSize(bytes)}
              </Typography.Text>
            );
          }}
        />
      </PieChart>
    </ResponsiveContainer>
  );
}

export function DashboardCharts({ stats }: { stats: DashboardStats }) {
  const t = useDashboardT();
  const { token } = theme.useToken();
  const span = dayWindow(stats.uploadsPerDay.map((d) => d.date));
  const range = t('dashboardStats.window', { first: span.first, last: span.last });
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12} xl={8}>
        <Card title={t('dashboardStats.uploadsPerDay')} extra={range} data-testid="chart-uploads">
          <DayChart
            days={stats.uploadsPerDay}
            span={span}
            color={token.colorPrimary}
            name={t('dashboardStats.uploads')}
            kind="bar"
          />
        </Card>
      </Col>
      <Col xs={24} lg={12} xl={8}>
        <Card title={t('dashboardStats.signupsPerDay')} extra={range} data-testid="chart-signups">
          <DayChart
            days={stats.signupsPerDay}
            span={span}
            color={token.colorSuccess}
            name={t('dashboardStats.signups')}
            kind="area"
          />
        </Card>
      </Col>
      <Col xs={24} lg={12} xl={8}>
        <Card title={t('dashboardStats.storageByLibrary')} data-testid="chart-storage">
          <StorageChart stats={stats} />
        </Card>
      </Col>
    </Row>
  );
}
