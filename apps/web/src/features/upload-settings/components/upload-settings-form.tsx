import { useEffect } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
} from 'antd';
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { libraries, type Library, type UploadConfig } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared/limits';
import {
  browserRunnableExtensions,
  type UploadSettingsView,
} from '@atrium/shared/contract/upload-settings';
import { toast } from '@/lib/feedback';
import { useSaveUploadSettings } from '../api/save-upload-settings';
import { useUploadSettingsT } from '../i18n';
import { withLoading } from '@/lib/loading';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

const MiB = 1024 * 1024;
const extensionPattern = /^[a-z0-9]{1,10}$/;

interface FormValues {
  chunkSizeMiB: number;
  parallelChunks: number;
  trashDays: number;
  category: Record<Library, { extensions: string[]; maxSizeMiB: number; keepMetadata: boolean }>;
}

const toMiB = (bytes: number) => Math.round((bytes / MiB) * 100) / 100;
const formatMiB = (bytes: number) => `${toMiB(bytes)} MiB`;

function toForm(config: UploadConfig): FormValues {
  const category = {} as FormValues['category'];
  for (const library of libraries) {
    const rules = config.category[library];
    category[library] = {
      extensions: rules.extensions,
      maxSizeMiB: toMiB(rules.maxSize),
      keepMetadata: rules.keepMetadata === true,
    };
  }
  return {
    chunkSizeMiB: toMiB(config.chunkSize),
    parallelChunks: config.parallelChunks,
    trashDays: config.trashDays ?? Limits.trashDays,
    category,
  };
}

function toConfig(values: FormValues): UploadConfig {
  const category = {} as UploadConfig['category'];
  for (const library of libraries) {
    const rules = values.category[library];
    category[library] = {
      extensions: rules.extensions,
      maxSize: Math.round(rules.maxSizeMiB * MiB),
      keepMetadata: rules.keepMetadata,
    };
  }
  return {
    chunkSize: Math.round(values.chunkSizeMiB * MiB),
    parallelChunks: values.parallelChunks,
    trashDays: values.trashDays,
    category,
  };
}

/** ".JPG" and "jpg" are the same extension. */
const normalise = (values: string[]) => [
  ...new Set(values.map((v) => v.trim().replace(/^\.+/, '').toLowerCase()).filter(Boolean)),
];

export interface UploadSettingsFormProps {
  view: UploadSettingsView;
}

export function UploadSettingsForm({ view }: UploadSettingsFormProps) {
  const t = useUploadSettingsT();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveUploadSettings();
  // Leaving the page asks first while the form holds what was not saved.
  const edits = useUnsavedEdits(true);
  const minChunkMiB = Math.max(0.01, Math.ceil((view.minChunkSize / MiB) * 100) / 100);

  useEffect(() => {
    form.setFieldsValue(toForm(view.config));
  }, [form, view.config]);

  const submit = async () => {
    const values = await form.validateFields();
    // Covers the page ("加载中...") until the save answers: the form is the whole view.
    await withLoading(() => save.mutateAsync(toConfig(values)));
    edits.saved();
  };

  const extensionRules = (library: Library) => [
    {
      validator: async (_: unknown, value: string[] | undefined) => {
        const list = value ?? [];
        if (list.length === 0) throw new Error(t('uploadSettings.extensionsRequired'));
        const bad = list.filter((ext) => !extensionPattern.test(ext));
        if (bad.length > 0) {
          throw new Error(t('uploadSettings.extensionInvalid', { list: bad.join(', ') }));
        }
        const runnable = list.filter((ext) =>
          (browserRunnableExtensions as readonly string[]).includes(ext),
        );
        if (library === 'image' && runnable.length > 0) {
          throw new Error(t('uploadSettings.runnable', { list: runnable.join(', ') }));
        }
      },
    },
  ];

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={toForm(view.config)}
      onValuesChange={edits.changed}
      onFinish={() => void submit().catch(() => undefined)}
    >
      <Flex vertical gap={16}>
        <Card title={t('uploadSettings.chunk')}>
          {view.storageDriver === 's3' && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('uploadSettings.chunkS3', { min: formatMiB(view.minChunkSize) })}
            />
          )}
          <Form.Item
            name="chunkSizeMiB"
            label={t('uploadSettings.chunkSize')}
            extra={t('uploadSettings.chunkHelp')}
            rules={[
              {
                required: true,
                message: t('uploadSettings.chunkMin', { min: formatMiB(view.minChunkSize) }),
              },
              {
                type: 'number',
                min: minChunkMiB,
                message: t('uploadSettings.chunkMin', { min: formatMiB(view.minChunkSize) }),
              },
            ]}
            style={{ marginBottom: 0 }}
          >
            <InputNumber
              min={minChunkMiB}
              max={100}
              step={1}
              precision={2}
              suffix={t('uploadSettings.mib')}
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item
            name="parallelChunks"
            label={t('uploadSettings.parallel')}
            extra={t('uploadSettings.parallelHelp')}
            rules={[{ required: true, type: 'integer', min: 1, max: 8 }]}
            style={{ marginTop: 16, marginBottom: 0 }}
          >
            <InputNumber min={1} max={8} step={1} precision={0} style={{ width: 200 }} />
          </Form.Item>
        </Card>

        <Card title={t('uploadSettings.trash')}>
          <Form.Item
            name="trashDays"
            label={t('uploadSettings.trashDays')}
            extra={t('uploadSettings.trashDaysHelp')}
            rules={[{ required: true, type: 'integer', min: 1, max: 3650 }]}
            style={{ marginBottom: 0 }}
          >
            <InputNumber
              min={1}
              max={3650}
              step={1}
              precision={0}
              suffix={t('uploadSettings.days')}
              style={{ width: 200 }}
            />
          </Form.Item>
        </Card>

        <Row gutter={[16, 16]}>
          {libraries.map((library) => (
            <Col key={library} xs={24} lg={12}>
              <Card title={t(`uploadSettings.library.${library}`)} style={{ height: '100%' }}>
                <Form.Item
                  name={['category', library, 'extensions']}
                  label={t('uploadSettings.extensions')}
                  rules={extensionRules(library)}
                  normalize={(value: string[]) => normalise(value)}
                >
                  <Select
                    mode="tags"
                    open={false}
                    suffix={null}
                    tokenSeparators={[',', ' ', ';']}
                    placeholder={t('uploadSettings.extensionsPlaceholder')}
                    aria-label={`${t(`uploadSettings.library.${library}`)} ${t('uploadSettings.extensions')}`}
                  />
                </Form.Item>
                <Form.Item
                  name={['category', library, 'maxSizeMiB']}
                  label={t('uploadSettings.maxSize')}
                  rules={[{ required: true, type: 'number', min: 0.01 }]}
                >
                  <InputNumber
                    min={0.01}
                    max={1024 * 1024}
                    precision={2}
                    suffix={t('uploadSettings.mib')}
                    style={{ width: 200 }}
                  />
                </Form.Item>
                <Form.Item
                  name={['category', library, 'keepMetadata']}
                  label={t('uploadSettings.keepMetadata')}
                  extra={t('uploadSettings.keepMetadataHelp')}
                  valuePropName="checked"
                  style={{ marginBottom: 0 }}
                >
                  <Switch
                    aria-label={`${t(`uploadSettings.library.${library}`)} ${t('uploadSettings.keepMetadata')}`}
                  />
                </Form.Item>
              </Card>
            </Col>
          ))}
        </Row>

        <Space>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
            {t('common.save')}
          </Button>
          <Button
            icon={<UndoOutlined />}
            onClick={() => {
              form.setFieldsValue(toForm(view.defaults));
              // Shown, not saved: still edits to ask about before leaving.
              edits.changed();
              toast.info(t('uploadSettings.resetHint'));
            }}
          >
            {t('uploadSettings.reset')}
          </Button>
        </Space>
      </Flex>
    </Form>
  );
}
