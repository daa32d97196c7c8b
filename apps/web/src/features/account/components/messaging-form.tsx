import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Typography,
} from 'antd';
import { SendOutlined } from '@ant-design/icons';
import type {
  MessagingForm as MessagingBody,
  MessagingView,
} from '@atrium/shared/contract/accounts';
import { parseTarget } from '@atrium/shared/contract/accounts-rules';
import { useSaveMessaging } from '../api/save-messaging';
import { useTestMessaging } from '../api/test-messaging';
import { useAccountT } from '../i18n';

type Values = Omit<MessagingBody, 'smtp'> & {
  smtp: Omit<MessagingBody['smtp'], 'password'> & { password: string };
};

function toBody(values: Values): MessagingBody {
  const { password, ...smtp } = values.smtp;
  return { ...values, smtp: password ? { ...smtp, password } : smtp };
}

/** The message transports (settings key `messaging`) with a "send test" that saves first. */
export function MessagingSettingsForm({ view }: { view: MessagingView }) {
  const t = useAccountT();
  const [form] = Form.useForm<Values>();
  const save = useSaveMessaging();
  const test = useTestMessaging();
  const [testTarget, setTestTarget] = useState('');
  const emailTransport = Form.useWatch('emailTransport', form) ?? view.emailTransport;
  const smsTransport = Form.useWatch('smsTransport', form) ?? view.smsTransport;
  const hasPassword = save.data?.smtp.hasPassword ?? view.smtp.hasPassword;
  const { hasPassword: _stored, ...smtp } = view.smtp;

  const onSave = (values: Values) =>
    save.mutate(
      { body: toBody(values) },
      { onSuccess: () => form.setFieldValue(['smtp', 'password'], '') },
    );

  const onTest = async () => {
    const values = await form.validateFields();
    await save.mutateAsync({ body: toBody(values), quiet: true });
    form.setFieldValue(['smtp', 'password'], '');
    test.mutate(testTarget.trim());
  };

  const logHelp = <Alert type="info" showIcon title={t('account.logTransportHelp')} />;
  const required = { required: true, whitespace: true, message: t('account.required') };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{ ...view, smtp: { ...smtp, password: '' } }}
      onFinish={onSave}
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('account.emailCard')} style={{ height: '100%' }}>
            <Form.Item name="emailTransport" label={t('account.emailTransport')}>
              <Select
                options={[
                  { value: 'log', label: t('account.transportLog') },
                  { value: 'smtp', label: t('account.transportSmtp') },
                ]}
              />
            </Form.Item>
            {emailTransport === 'log' ? (
              logHelp
            ) : (
              <>
                <Row gutter={12}>
                  <Col flex="auto">
                    <Form.Item
                      name={['smtp', 'host']}
                      label={t('account.smtpHost')}
                      rules={[required]}
                    >
                      <Input placeholder="smtp.example.com" />
                    </Form.Item>
                  </Col>
                  <Col flex="120px">
                    <Form.Item
                      name={['smtp', 'port']}
                      label={t('account.smtpPort')}
                      rules={[{ required: true, message: t('account.required') }]}
                    >
                      <InputNumber min={1} max={65535} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item name={['smtp', 'security']} label={t('account.smtpSecurity')}>
                  <Select
                    options={[
                      { value: 'starttls', label: t('account.securityStarttls') },
                      { value: 'tls', label: t('account.securityTls') },
                      { value: 'none', label: t('account.securityNone') },
                    ]}
                  />
                </Form.Item>
                <Row gutter={12}>
                  <Col xs={24} sm={12}>
                    <Form.Item name={['smtp', 'user']} label={t('account.smtpUser')}>
                      <Input autoComplete="off" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12}>
                    <Form.Item
                      name={['smtp', 'password']}
                      label={t('account.smtpPassword')}
                      extra={t('account.smtpPasswordHelp')}
                    >
                      <Input.Password
                        autoComplete="new-password"
                        placeholder={hasPassword ? t('account.smtpPasswordKeep') : ''}
                      />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item name={['smtp', 'from']} label={t('account.smtpFrom')}>
                  <Input placeholder={t('account.smtpFromPlaceholder')} />
                </Form.Item>
              </>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('account.smsCard')} style={{ height: '100%' }}>
            <Form.Item name="smsTransport" label={t('account.smsTransport')}>
              <Select
                options={[
                  { value: 'log', label: t('account.transportLog') },
                  { value: 'webhook', label: t('account.transportWebhook') },
                ]}
              />
            </Form.Item>
            {smsTransport === 'log' && logHelp}
            <Form.Item
              name={['sms', 'url']}
              label={t('account.webhookUrl')}
              extra={t('account.webhookHelp')}
              hidden={smsTransport === 'log'}
              rules={[
                {
                  validator: (_r, value: unknown) =>
                    smsTransport === 'log' ||
                    (typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim()))
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('account.urlInvalid'))),
                },
              ]}
            >
              <Input placeholder="https://sms.example.com/send" />
            </Form.Item>
            <Form.Item
              name={['sms', 'template']}
              label={t('account.smsTemplate')}
              extra={t('account.smsTemplateHelp')}
              style={{ marginTop: 16 }}
              rules={[
                {
                  validator: (_r, value: unknown) =>
                    typeof value === 'string' && value.includes('{code}')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('account.templateNeedsCode'))),
                },
              ]}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} />
            </Form.Item>
          </Card>
        </Col>
        <Col span={24}>
          <Flex justify="flex-end">
            <Button type="primary" htmlType="submit" loading={save.isPending && !test.isPending}>
              {t('account.save')}
            </Button>
          </Flex>
        </Col>
        <Col span={24}>
          <Card title={t('account.testCard')}>
            <Typography.Paragraph type="secondary">{t('account.testHelp')}</Typography.Paragraph>
            <Flex gap={8} wrap>
              <Input
                aria-label={t('account.testTarget')}
                placeholder={t('account.targetPlaceholder')}
                value={testTarget}
                onChange={(e) => setTestTarget(e.target.value)}
                style={{ maxWidth: 320 }}
                status={testTarget && !parseTarget(testTarget) ? 'error' : undefined}
              />
              <Button
                icon={<SendOutlined />}
                disabled={!parseTarget(testTarget)}
                loading={test.isPending}
                onClick={() => void onTest()}
              >
                {t('account.sendTest')}
              </Button>
            </Flex>
          </Card>
        </Col>
      </Row>
    </Form>
  );
}
