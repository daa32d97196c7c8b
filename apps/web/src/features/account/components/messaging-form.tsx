import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
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
import { sameSmtpAddress, sameUrlAddress } from '@atrium/shared/contract/secret-address';
import { useSaveMessaging } from '../api/save-messaging';
import { useTestMessaging } from '../api/test-messaging';
import { useAccountT } from '../i18n';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

type Values = Omit<MessagingBody, 'smtp' | 'sms'> & {
  smtp: Omit<MessagingBody['smtp'], 'password'> & { password: string };
  sms: Omit<MessagingBody['sms'], 'secret'> & { secret: string; removeSecret: boolean };
};

function toBody(values: Values): MessagingBody {
  const { password, ...smtp } = values.smtp;
  const { secret, removeSecret, ...sms } = values.sms;
  const typed = secret.trim();
  return {
    ...values,
    smtp: password ? { ...smtp, password } : smtp,
    sms: removeSecret ? { ...sms, secret: '' } : typed ? { ...sms, secret: typed } : sms,
  };
}

/**
 * A saved secret only goes to the address it was saved for (DESIGN 7): after the admin changes
 * that address the form asks for the secret again, as the server would refuse to keep it.
 */
function mustRetypePassword(saved: MessagingView['smtp'], smtp: Partial<Values['smtp']>) {
  const { host, port, security, user } = smtp;
  if (!saved.hasPassword || !user || host === undefined || port === undefined || !security) {
    return false;
  }
  return !sameSmtpAddress(saved, { host, port, security, user });
}

function mustRetypeSecret(saved: MessagingView['sms'], sms: Partial<Values['sms']>) {
  return (
    saved.hasSecret &&
    !sms.removeSecret &&
    typeof sms.url === 'string' &&
    sms.url.trim() !== '' &&
    !sameUrlAddress(saved.url, sms.url)
  );
}

/** The message transports (settings key `messaging`) with a "send test" that saves first. */
export function MessagingSettingsForm({ view }: { view: MessagingView }) {
  const t = useAccountT();
  const [form] = Form.useForm<Values>();
  const save = useSaveMessaging();
  const test = useTestMessaging();
  const [testTarget, setTestTarget] = useState('');
  const edits = useUnsavedEdits(true);
  const emailTransport = Form.useWatch('emailTransport', form) ?? view.emailTransport;
  const smsTransport = Form.useWatch('smsTransport', form) ?? view.smsTransport;
  const saved = save.data ?? view;
  const hasPassword = saved.smtp.hasPassword;
  const hasSecret = saved.sms.hasSecret;
  const editedSmtp = Form.useWatch('smtp', form);
  const editedSms = Form.useWatch('sms', form);
  const passwordAgain = editedSmtp !== undefined && mustRetypePassword(saved.smtp, editedSmtp);
  const secretAgain = editedSms !== undefined && mustRetypeSecret(saved.sms, editedSms);
  const { hasPassword: _stored, ...smtp } = view.smtp;
  const { hasSecret: _storedSecret, ...sms } = view.sms;

  const clearSecrets = () => {
    form.setFieldsValue({ smtp: { password: '' }, sms: { secret: '', removeSecret: false } });
    edits.saved();
  };

  const onSave = (values: Values) =>
    save.mutate({ body: toBody(values) }, { onSuccess: clearSecrets });

  const onTest = async () => {
    const values = await form.validateFields();
    await save.mutateAsync({ body: toBody(values), quiet: true });
    clearSecrets();
    test.mutate(testTarget.trim());
  };

  const logHelp = <Alert type="info" showIcon title={t('account.logTransportHelp')} />;
  const required = { required: true, whitespace: true, message: t('account.required') };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{
        ...view,
        smtp: { ...smtp, password: '' },
        sms: { ...sms, secret: '', removeSecret: false },
      }}
      onValuesChange={edits.changed}
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
                      dependencies={[
                        ['smtp', 'host'],
                        ['smtp', 'port'],
                        ['smtp', 'security'],
                        ['smtp', 'user'],
                      ]}
                      extra={
                        passwordAgain
                          ? t('account.smtpPasswordRetypeHelp')
                          : t('account.smtpPasswordHelp')
                      }
                      rules={[
                        {
                          validator: (_r, value: unknown) =>
                            !mustRetypePassword(saved.smtp, form.getFieldsValue().smtp) ||
                            (typeof value === 'string' && value !== '')
                              ? Promise.resolve()
                              : Promise.reject(new Error(t('account.smtpPasswordRetype'))),
                        },
                      ]}
                    >
                      <Input.Password
                        autoComplete="new-password"
                        placeholder={
                          passwordAgain
                            ? t('account.smtpPasswordRetype')
                            : hasPassword
                              ? t('account.smtpPasswordKeep')
                              : ''
                        }
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
              name={['sms', 'secret']}
              label={t('account.webhookSecret')}
              hidden={smsTransport === 'log'}
              style={{ marginTop: 16 }}
              dependencies={[
                ['sms', 'url'],
                ['sms', 'removeSecret'],
              ]}
              extra={
                secretAgain ? t('account.webhookSecretRetypeHelp') : t('account.webhookSecretHelp')
              }
              rules={[
                {
                  validator: (_r, value: unknown) =>
                    !mustRetypeSecret(saved.sms, form.getFieldsValue().sms) ||
                    (typeof value === 'string' && value.trim() !== '')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('account.webhookSecretRetype'))),
                },
              ]}
            >
              <Input.Password
                autoComplete="new-password"
                disabled={editedSms?.removeSecret === true}
                placeholder={
                  secretAgain
                    ? t('account.webhookSecretRetype')
                    : hasSecret
                      ? t('account.webhookSecretKeep')
                      : t('account.webhookSecretNone')
                }
              />
            </Form.Item>
            <Form.Item
              name={['sms', 'removeSecret']}
              valuePropName="checked"
              hidden={smsTransport === 'log' || !hasSecret}
              style={{ marginTop: -8 }}
            >
              <Checkbox>{t('account.webhookSecretRemove')}</Checkbox>
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
              {t('common.save')}
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
