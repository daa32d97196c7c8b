import type { ReactNode } from 'react';
import { Checkbox, Form, Input, Radio, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { tFields, useFieldsT } from '../i18n';
import { FieldLimits } from '../limits';

type FormFieldType = 'text' | 'textarea' | 'radio' | 'checkbox' | 'select';
type FormFieldValue = string | string[];

/** What the field is: its kind and its name (used as label and in messages). */
interface FormFieldData {
  type?: FormFieldType;
  title?: string;
}

export interface FormFieldInputProps {
  data?: FormFieldData;
  isRequired?: boolean;
  /** The choices of radio, checkbox and select fields. */
  option?: string[];
  /** Longest text (SPEC 9: 50). */
  textLength?: number;
  placeholder?: string;
  /** Shown while the value is unset. */
  defaultValue?: FormFieldValue;
  value?: FormFieldValue;
  onChange?: (value: FormFieldValue) => void;
  disabled?: boolean;
  id?: string;
}

const isChoice = (type: FormFieldType) => type !== 'text' && type !== 'textarea';

/**
 * The checks of a generic field (SPEC 5): required, and at most textLength characters. Each
 * message names the field, so a long form says which one is wrong.
 */
function formFieldRules({
  data = {},
  isRequired = false,
  textLength = FieldLimits.textLength,
}: Pick<FormFieldInputProps, 'data' | 'isRequired' | 'textLength'>): Rule[] {
  const type = data.type ?? 'text';
  const label = data.title || tFields('fields.input.thisField');
  const rules: Rule[] = [];
  if (isRequired) {
    rules.push({
      validator: async (_, value: unknown) => {
        const empty = Array.isArray(value)
          ? value.length === 0
          : typeof value !== 'string' || value.trim() === '';
        if (empty) {
          throw new Error(
            tFields(isChoice(type) ? 'fields.input.requiredChoice' : 'fields.input.required', {
              label,
            }),
          );
        }
      },
    });
  }
  if (!isChoice(type)) {
    rules.push({
      validator: async (_, value: unknown) => {
        const length = typeof value === 'string' ? [...value].length : 0;
        if (length > textLength) {
          throw new Error(tFields('fields.input.tooLong', { label, max: textLength, length }));
        }
      },
    });
  }
  return rules;
}

/** A generic form-field input (SPEC 2.6): text, textarea, radio, checkbox or select. */
export function FormFieldInput({
  data = {},
  option = [],
  textLength = FieldLimits.textLength,
  placeholder,
  defaultValue,
  value,
  onChange,
  disabled,
  id,
}: FormFieldInputProps) {
  const t = useFieldsT();
  const type = data.type ?? 'text';
  const current = value ?? defaultValue;
  const text = typeof current === 'string' ? current : '';
  const list = Array.isArray(current) ? current : [];
  const choices = option.map((choice) => ({ label: choice, value: choice }));
  const count = { show: true, max: textLength, strategy: (s: string) => [...s].length };

  switch (type) {
    case 'textarea':
      return (
        <Input.TextArea
          id={id}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          autoSize={{ minRows: 3, maxRows: 12 }}
          count={count}
          onChange={(event) => onChange?.(event.target.value)}
        />
      );
    case 'radio':
      return (
        <Radio.Group
          id={id}
          value={text || undefined}
          options={choices}
          disabled={disabled}
          onChange={(event) => onChange?.(String(event.target.value))}
        />
      );
    case 'checkbox':
      return (
        <Checkbox.Group
          value={list}
          options={choices}
          disabled={disabled}
          onChange={(checked) => onChange?.(checked.map(String))}
        />
      );
    case 'select':
      return (
        <Select
          id={id}
          value={text || undefined}
          options={choices}
          placeholder={placeholder ?? t('fields.input.select')}
          disabled={disabled}
          allowClear
          onChange={(chosen: string | undefined) => onChange?.(chosen ?? '')}
        />
      );
    default:
      return (
        <Input
          id={id}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          count={count}
          onChange={(event) => onChange?.(event.target.value)}
        />
      );
  }
}

export interface FormFieldItemProps extends Omit<FormFieldInputProps, 'value' | 'onChange'> {
  /** The form field name. */
  name: string | (string | number)[];
  extra?: ReactNode;
}

/** The input inside a Form.Item carrying its label, default value and checks. */
export function FormFieldItem({ name, extra, defaultValue, ...props }: FormFieldItemProps) {
  return (
    <Form.Item
      name={name}
      label={props.data?.title}
      required={props.isRequired}
      rules={formFieldRules(props)}
      initialValue={defaultValue}
      extra={extra}
    >
      <FormFieldInput {...props} />
    </Form.Item>
  );
}
