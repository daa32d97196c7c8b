import { AutoComplete, Col, Form, Input, InputNumber, Row, Switch } from 'antd';
import type { ModelRecord } from '@atrium/shared/contract/chat';
import { useProviderModels } from '../api/provider-models';
import { useSaveModel } from '../api/save-model';
import { useAiT } from '../i18n';
import { asyncHandler } from '@/lib/async-handler';
import { FormDialog } from '@/components/form-dialog';

interface Values {
  name: string;
  title: string;
  vision: boolean;
  contextLength: number;
  promptPrice: number;
  completionPrice: number;
  enabled: boolean;
  sort: number;
}

export interface ModelTarget {
  providerId: number;
  /** undefined: a new model of that provider. */
  model?: ModelRecord;
}

const FORM_ID = 'ai-model-form';

/** Create or edit one model of a provider. */
export function ModelDialog({
  target,
  onClose,
}: {
  target: ModelTarget | undefined;
  onClose: () => void;
}) {
  const t = useAiT();
  const save = useSaveModel();
  return (
    <FormDialog
      open={target !== undefined}
      title={target?.model ? t('ai.editModel') : t('ai.createModel')}
      formId={FORM_ID}
      pending={save.isPending}
      onClose={onClose}
    >
      {(onChange) =>
        target && (
          <ModelForm
            target={target}
            save={save.mutateAsync}
            onChange={onChange}
            onSaved={onClose}
          />
        )
      }
    </FormDialog>
  );
}

/** Mounted afresh each time the dialog opens, so its initial values are the model's. */
function ModelForm({
  target,
  save,
  onChange,
  onSaved,
}: {
  target: ModelTarget;
  save: ReturnType<typeof useSaveModel>['mutateAsync'];
  onChange: () => void;
  onSaved: () => void;
}) {
  const t = useAiT();
  const { model } = target;
  const [form] = Form.useForm<Values>();
  const listed = useProviderModels(target.providerId);
  const typed = Form.useWatch('name', form) ?? '';
  const options = (listed.data?.models ?? [])
    .filter((id) => id.toLowerCase().includes(typed.trim().toLowerCase()))
    .map((id) => ({ value: id, label: id }));
  const hint = listed.isPending
    ? t('ai.modelListLoading')
    : listed.isError
      ? t('ai.modelListFailed')
      : t('ai.modelListHint', { n: listed.data.models.length });
  return (
    <Form<Values>
      form={form}
      name={FORM_ID}
      layout="vertical"
      onValuesChange={onChange}
      initialValues={{
        name: model?.name ?? '',
        title: model?.title ?? '',
        vision: model?.vision ?? false,
        contextLength: model?.contextLength ?? 0,
        promptPrice: model?.promptPrice ?? 0,
        completionPrice: model?.completionPrice ?? 0,
        enabled: model?.enabled ?? true,
        sort: model?.sort ?? 0,
      }}
      onFinish={asyncHandler(async (values: Values) => {
        try {
          await save({
            id: model?.id ?? 0,
            providerId: target.providerId,
            name: values.name.trim(),
            title: values.title.trim(),
            vision: values.vision,
            contextLength: values.contextLength,
            promptPrice: values.promptPrice,
            completionPrice: values.completionPrice,
            enabled: values.enabled,
            sort: values.sort,
          });
          onSaved();
        } catch {
          // The API client has shown why; the dialog stays open to fix it.
        }
      })}
    >
      <Form.Item
        name="name"
        label={t('ai.modelName')}
        extra={
          <>
            {t('ai.modelNameHint')}
            <br />
            <span data-testid="model-list-hint">{hint}</span>
          </>
        }
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('ai.required', { field: t('ai.modelName') }),
          },
        ]}
      >
        <AutoComplete
          options={options}
          maxLength={200}
          onSelect={(id: string) => {
            if (!form.getFieldValue('title')) form.setFieldValue('title', id);
          }}
        />
      </Form.Item>
      <Form.Item
        name="title"
        label={t('ai.modelTitle')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('ai.required', { field: t('ai.modelTitle') }),
          },
        ]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="contextLength" label={t('ai.contextLength')}>
        <InputNumber min={0} max={10_000_000} step={1024} style={{ width: '100%' }} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="promptPrice" label={t('ai.promptPrice')}>
            <InputNumber min={0} max={100_000} step={0.1} precision={6} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="completionPrice" label={t('ai.completionPrice')}>
            <InputNumber min={0} max={100_000} step={0.1} precision={6} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="sort" label={t('ai.sort')}>
        <InputNumber min={-1_000_000} max={1_000_000} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="vision" label={t('ai.vision')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="enabled" label={t('ai.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </Form>
  );
}
