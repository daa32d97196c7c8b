import { Button, DatePicker, Flex, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useAuditOptions } from '../api/audit-options';
import { useAuditT } from '../i18n';

export interface AuditFilter {
  adminId?: number | undefined;
  action?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export interface AuditFiltersProps {
  value: AuditFilter;
  onChange: (filter: AuditFilter) => void;
}

/** Administrator, action and a date range; the range covers whole days in local time. */
export function AuditFilters({ value, onChange }: AuditFiltersProps) {
  const t = useAuditT();
  const options = useAuditOptions();

  const onRange = (range: [Dayjs | null, Dayjs | null] | null) => {
    const [start, end] = range ?? [null, null];
    onChange({
      ...value,
      from: start ? start.startOf('day').valueOf() : undefined,
      to: end ? end.endOf('day').valueOf() : undefined,
    });
  };

  return (
    <Flex gap={8} wrap>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 200 }}
        placeholder={t('audit.allAdmins')}
        aria-label={t('audit.admin')}
        value={value.adminId}
        loading={options.isPending}
        options={(options.data?.admins ?? []).map((a) => ({ value: a.id, label: a.username }))}
        onChange={(adminId: number | undefined) => onChange({ ...value, adminId })}
      />
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 260 }}
        placeholder={t('audit.allActions')}
        aria-label={t('audit.action')}
        value={value.action}
        loading={options.isPending}
        options={(options.data?.actions ?? []).map((a) => ({ value: a.action, label: a.text }))}
        onChange={(action: string | undefined) => onChange({ ...value, action })}
      />
      <DatePicker.RangePicker
        aria-label={t('audit.range')}
        value={
          value.from !== undefined && value.to !== undefined
            ? [dayjs(value.from), dayjs(value.to)]
            : null
        }
        onChange={onRange}
      />
      <Button onClick={() => onChange({})}>{t('audit.reset')}</Button>
    </Flex>
  );
}
