import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Tooltip } from 'antd';
import { useFieldsT } from '../i18n';
import '../fields.css';

/** One row (SPEC 3.7). */
export interface NameValueItem {
  name: string;
  value: string;
}

export interface NameValueListProps {
  value?: NameValueItem[];
  onChange?: (value: NameValueItem[]) => void;
  /** Most rows; "Add" is disabled at the limit. */
  max?: number;
  nameMaxLength?: number;
  valueMaxLength?: number;
  disabled?: boolean;
  id?: string;
}

/** Name/value list editor (SPEC 2.6): rows of "Name" and "Content" with delete, and "Add". */
export function NameValueList({
  value,
  onChange,
  max,
  nameMaxLength,
  valueMaxLength,
  disabled = false,
  id,
}: NameValueListProps) {
  const t = useFieldsT();
  const rows = value ?? [];
  const full = max !== undefined && rows.length >= max;
  const change = (index: number, patch: Partial<NameValueItem>) =>
    onChange?.(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <div className="atrium-field-rows" id={id}>
      {rows.map((row, index) => (
        <div className="atrium-field-row" key={index}>
          <Input
            className="atrium-field-row-name"
            value={row.name}
            placeholder={t('fields.name')}
            aria-label={`${t('fields.name')} ${index + 1}`}
            maxLength={nameMaxLength}
            disabled={disabled}
            onChange={(event) => change(index, { name: event.target.value })}
          />
          <Input
            className="atrium-field-row-value"
            value={row.value}
            placeholder={t('fields.content')}
            aria-label={`${t('fields.content')} ${index + 1}`}
            maxLength={valueMaxLength}
            disabled={disabled}
            onChange={(event) => change(index, { value: event.target.value })}
          />
          <Tooltip title={t('fields.deleteRow')}>
            <Button
              className="atrium-field-row-delete"
              type="text"
              icon={<MinusCircleOutlined />}
              aria-label={`${t('fields.deleteRow')} ${index + 1}`}
              disabled={disabled}
              onClick={() => onChange?.(rows.filter((_, i) => i !== index))}
            />
          </Tooltip>
        </div>
      ))}
      <div>
        <Button
          type="link"
          icon={<PlusOutlined />}
          disabled={disabled || full}
          style={{ paddingInline: 0 }}
          onClick={() => onChange?.([...rows, { name: '', value: '' }])}
        >
          {t('fields.add')}
        </Button>
      </div>
    </div>
  );
}
