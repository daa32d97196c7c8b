import { Flex, Input } from 'antd';
import { VerifyCodeButton } from '@/components/verify-code-button/verify-code-button';

export interface CodeInputProps {
  /** Set by the Form.Item around it, like its id and ARIA: the label, error and hint reach the box. */
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
  placeholder?: string;
  send: () => Promise<unknown>;
  onError: (error: unknown) => void;
}

/** The verification code box with its send button, as one form control. */
export function CodeInput({
  value,
  onChange,
  placeholder,
  send,
  onError,
  ...field
}: CodeInputProps) {
  return (
    <Flex gap={8}>
      <Input
        {...field}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={placeholder}
        style={{ flex: 1, minWidth: 0 }}
      />
      <VerifyCodeButton send={send} onError={onError} />
    </Flex>
  );
}
