import { Flex, Input } from 'antd';
import { CaptchaImage } from './captcha-image';

export interface CaptchaInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  /** Changing it draws a new image and is the moment to forget the typed answer. */
  refreshKey?: number;
  height?: number;
  autoFocus?: boolean;
  /** Set by the Form.Item around it: the error/hint ids, the error state, the required flag. */
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

/** A form control: the answer box with the captcha image beside it. */
export function CaptchaInput({
  id,
  value,
  onChange,
  placeholder,
  refreshKey,
  height = 40,
  autoFocus,
  ...aria
}: CaptchaInputProps) {
  return (
    <Flex gap={8} align="center">
      <Input
        id={id}
        {...aria}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={placeholder}
        maxLength={8}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        autoFocus={autoFocus}
        style={{ height, flex: 1, minWidth: 0 }}
      />
      <CaptchaImage height={height} refreshKey={refreshKey} />
    </Flex>
  );
}
