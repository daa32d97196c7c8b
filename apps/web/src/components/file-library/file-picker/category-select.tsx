import { Select } from 'antd';
import type { CategoryOption } from './categories';

export interface CategorySelectProps {
  options: readonly CategoryOption[];
  value?: number;
  onChange?: (value: number) => void;
  id?: string;
}

/** A flat select whose labels are indented by depth, so the tree still reads as a tree. */
export function CategorySelect({ options, value, onChange, id }: CategorySelectProps) {
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'title' }}
      options={options.map((o) => ({
        value: o.value,
        title: o.label,
        label: <span style={{ paddingInlineStart: o.depth * 16 }}>{o.label}</span>,
      }))}
    />
  );
}
