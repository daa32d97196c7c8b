import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginRequest, LoginResponse } from '@atrium/shared';
import {
  CaptchaField,
  captchaRequiredBy,
  isCaptchaWrong,
} from '@/components/captcha/captcha-field';
import { useT } from '@/lib/i18n';
import { useLogin } from '../api/login';

export interface LoginFormProps {
  onSuccess: (result: LoginResponse) => void;
}

export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useT();
  const mutation = useLogin();
  const [form] = Form.useForm<LoginRequest>();
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captchaKey, setCaptchaKey] = useState(0);
  const onError = (error: unknown, values: LoginRequest) => {
    if (captchaRequiredBy(error)) setCaptchaShown(true);
    // Any check uses the captcha up; a wrong one has already drawn a new image by itself.
    if (values.captcha && !isCaptchaWrong(error)) setCaptchaKey((k) => k + 1);
    form.setFieldValue('captcha', '');
  };
  return (
    <Form<LoginRequest>
      form={form}
      layout="vertical"
      size="large"
      onFinish={(values) =>
        mutation.mutate(values, { onSuccess, onError: (error) => onError(error, values) })
      }
    >
      {mutation.error && (
        <Alert type="error" showIcon title={mutation.error.message} style={{ marginBottom: 20 }} />
      )}
      <Form.Item
        name="username"
        label={t('auth.username')}
        rules={[{ required: true, whitespace: true, message: t('auth.usernameRequired') }]}
      >
        <Input
          prefix={<UserOutlined />}
          autoComplete="username"
          placeholder={t('auth.usernamePlaceholder')}
          autoFocus
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('auth.password')}
        rules={[{ required: true, message: t('auth.passwordRequired') }]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
      </Form.Item>
      {captchaShown && <CaptchaField refreshKey={captchaKey} />}
      <Form.Item style={{ marginBottom: 0, marginTop: 8 }}>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          {t('auth.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
