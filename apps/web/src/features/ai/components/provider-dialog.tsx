import { useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Space, Tag } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import type { ProviderRecord, ProviderTestResponse } from '@atrium/shared/contract/chat';
import { sameUrlAddress } from '@atrium/shared/contract/secret-address';
import { useSaveProvider } from '../api/save-provider';
import { useTestProvider } from '../api/test-provider';
import { useAiT } from '../i18n';
import { asyncHandler } from '@/lib/async-handler';
import { FormDialog } from '@/components/form-dialog';

interface Values {
  name: string;
  baseUrl: string;
  apiKey?: string;
  removeKey?: boolean;
  testModel?: string;
}

export interface ProviderDialogProps {
  /** undefined: closed; null: a new provider. */
  provider: ProviderRecord | null | undefined;
  onClose: () => void;
}

const FORM_ID = 'ai-provider-form';

/** Create or edit a provider; the key is write-only: it is never shown, only replaced or removed. */
export function ProviderDialog({ provider, onClose }: ProviderDialogProps) {
  const t = useAiT();
  const save = useSaveProvider();
  return (
    <FormDialog
      open={provider !== undefined}
      title={provider ? t('ai.editProvider') : t('ai.createProvider')}
      formId={FORM_ID}
      pending={save.isPending}
      onClose={onClose}
    >
      {(onChange) => (
        <ProviderForm
          editing={provider ?? undefined}
          save={save.mutateAsync}
          onChange={onChange}
          onSaved={onClose}
        />
      )}
    </FormDialog>
  );
}

/** Mounted afresh each time the dialog opens, so its initial values are the provider's. */
function ProviderForm({
  editing,
  save,
  onChange,
  onSaved,
}: {
  editing: ProviderRecord | undefined;
  save: ReturnType<typeof useSaveProvider>['mutateAsync'];
  onChange: () => void;
  onSaved: () => void;
}) {
  const t = useAiT();
  const [form] = Form.useForm<Values>();
  const test = useTestProvider();
  const [tested, setTested] = useState<ProviderTestResponse>();
  const removeKey = Form.useWatch('removeKey', form);
  const baseUrl = Form.useWatch('baseUrl', form);
  // The saved key is never sent to another address (DESIGN 7): a new one asks for it again.
  const mustRetypeKey = (url: unknown, remove: unknown) =>
    editing?.hasKey === true &&
    typeof url === 'string' &&
    !sameUrlAddress(editing.baseUrl, url) &&
    remove !== true;
  const keyMustBeRetyped = mustRetypeKey(baseUrl, removeKey);

  const keyField = (values: Values): { apiKey?: string } => {
    if (values.removeKey) return { apiKey: '' };
    if (values.apiKey?.trim()) return { apiKey: values.apiKey.trim() };
    return editing ? {} : { apiKey: '' };
  };

  const runTest = async () => {
    setTested(undefined);
    try {
      const values = await form.validateFields(['baseUrl', 'apiKey']);
      const all = form.getFieldsValue();
      setTested(
        await test.mutateAsync({
          id: editing?.id ?? 0,
          baseUrl: values.baseUrl,
          ...keyField(all),
          ...(all.testModel?.trim() ? { model: all.testModel.trim() } : {}),
        }),
      );
    } catch {
      // The form's fields or the API client have shown why.
    }
  };

  return (
    <Form<Values>
      form={form}
      name={FORM_ID}
      layout="vertical"
      onValuesChange={onChange}
      initialValues={{
        name: editing?.name ?? '',
        baseUrl: editing?.baseUrl ?? 'https://api.openai.com/v1',
        apiKey: '',
        removeKey: false,
        testModel: editing?.models[0]?.name ?? '',
      }}
      onFinish={asyncHandler(async (values: Values) => {
        try {
          await save({
            id: editing?.id ?? 0,
            name: values.name.trim(),
            baseUrl: values.baseUrl.trim(),
            ...keyField(values),
          });
          onSaved();
        } catch {
          // The API client has shown why; the dialog stays open to fix it.
        }
      })}
    >
      <Form.Item
        name="name"
        label={t('ai.name')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('ai.required', { field: t('ai.name') }),
          },
        ]}
      >
        <Input maxLength={100} placeholder="OpenAI / DeepSeek / Ollama" />
      </Form.Item>
      <Form.Item
        name="baseUrl"
        label={t('ai.baseUrl')}
        rules={[
          { required: true, type: 'url', message: t('ai.required', { field: t('ai.baseUrl') }) },
        ]}
      >
        <Input maxLength={500} placeholder="https://api.openai.com/v1" />
      </Form.Item>
      <Form.Item
        name="apiKey"
        label={t('ai.apiKey')}
        dependencies={['baseUrl', 'removeKey']}
        extra={
          keyMustBeRetyped
            ? t('ai.keyRetypeHelp')
            : editing?.hasKey
              ? t('ai.keySet', { hint: editing.keyHint })
              : undefined
        }
        rules={[
          ({ getFieldValue }) => ({
            validator: (_rule, value: unknown) =>
              !mustRetypeKey(getFieldValue('baseUrl'), getFieldValue('removeKey')) ||
              (typeof value === 'string' && value.trim() !== '')
                ? Promise.resolve()
                : Promise.reject(new Error(t('ai.keyRetype'))),
          }),
        ]}
      >
        <Input.Password
          autoComplete="new-password"
          disabled={removeKey === true}
          placeholder={
            keyMustBeRetyped ? t('ai.keyRetype') : editing?.hasKey ? t('ai.keyKeep') : 'sk-...'
          }
        />
      </Form.Item>
      {editing?.hasKey && (
        <Form.Item name="removeKey" valuePropName="checked" style={{ marginTop: -8 }}>
          <Checkbox>{t('ai.keyRemove')}</Checkbox>
        </Form.Item>
      )}
      <Form.Item name="testModel" label={t('ai.testModel')}>
        <Input maxLength={200} placeholder="gpt-4o-mini" />
      </Form.Item>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Button icon={<ApiOutlined />} loading={test.isPending} onClick={() => void runTest()}>
          {t('ai.test')}
        </Button>
        {tested && (
          <Alert
            type="success"
            showIcon
            title={
              tested.method === 'models'
                ? t('ai.testOk', { ms: tested.latencyMs, count: tested.models.length })
                : t('ai.testOkCompletion', { ms: tested.latencyMs })
            }
            description={
              tested.models.length > 0 && (
                <div style={{ maxHeight: 120, overflowY: 'auto' }}>
                  {t('ai.available')}{' '}
                  {tested.models.map((m) => (
                    <Tag key={m} style={{ marginTop: 4 }}>
                      {m}
                    </Tag>
                  ))}
                </div>
              )
            }
          />
        )}
      </Space>
    </Form>
  );
}
