import { useEffect } from 'react';
import { Button, Card, Flex, Form, Input, Radio, Select } from 'antd';
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import {
  metaNamePattern,
  siteBannersMax,
  siteMetaNameMaxLength,
  siteMetaTagsMax,
  siteMetaValueMaxLength,
  siteNameMaxLength,
  type SiteSettings,
} from '@atrium/shared/contract/site-settings';
import { CodeEditorField, jsonRule } from '@/components/fields/code-editor-field/code-editor-field';
import { FieldDefaultsProvider } from '@/components/fields/field-defaults';
import { FileField } from '@/components/fields/file-field/file-field';
import { FormFieldItem } from '@/components/fields/form-field-input/form-field-input';
import { ImageField } from '@/components/fields/image-field/image-field';
import { ImagesField } from '@/components/fields/images-field/images-field';
import {
  NameValueList,
  type NameValueItem,
} from '@/components/fields/name-value-list/name-value-list';
import { RichTextField } from '@/components/fields/rich-text-field/rich-text-field';
import { refreshAppConfig } from '@/features/app';
import { ApiError } from '@/lib/api';
import { withLoading } from '@/lib/loading';
import { useSmallWindow } from '@/lib/use-media-query';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';
import { useSaveSiteSettings } from '../api/save-site-settings';
import { useSettingsT } from '../i18n';

/** The admin side's shared file library: what every picker of this form opens. */
const adminLibrary = '/admin/data/file_manager';

const fieldNames: readonly (keyof SiteSettings)[] = [
  'siteName',
  'siteLanguage',
  'logo',
  'favicon',
  'banners',
  'terms',
  'about',
  'metaTags',
  'selectorMode',
  'selectorServer',
  'advanced',
];

/** Rows left entirely empty are dropped rather than refused: "Add" then nothing means nothing. */
function cleanMetaTags(rows: NameValueItem[] | undefined): NameValueItem[] {
  return (rows ?? [])
    .map((row) => ({ name: row.name.trim(), value: row.value }))
    .filter((row) => row.name !== '' || row.value.trim() !== '');
}

/**
 * The form field a refusal is about: its data names the field's path (`settings.metaTags.0.name`);
 * its text is already in the page's language (rendered from the catalogue key).
 */
function fieldOf(error: unknown): keyof SiteSettings | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data: unknown = error.result.data;
  const path =
    typeof data === 'object' && data !== null && 'field' in data && typeof data.field === 'string'
      ? data.field
      : '';
  const name = /^settings\.(\w+)/.exec(path)?.[1];
  return fieldNames.find((field) => field === name);
}

export interface SiteSettingsFormProps {
  settings: SiteSettings;
}

export function SiteSettingsForm({ settings }: SiteSettingsFormProps) {
  const t = useSettingsT();
  const [form] = Form.useForm<SiteSettings>();
  const save = useSaveSiteSettings();
  const cardSize = useSmallWindow() ? 'small' : 'default';
  // Leaving the page (menu, back, closing the tab) asks first while edits are not saved.
  const edits = useUnsavedEdits(true);

  useEffect(() => {
    form.setFieldsValue(settings);
  }, [form, settings]);

  const submit = async (values: SiteSettings) => {
    try {
      // The whole page is the form: it stays covered ("加载中...") until the save answers.
      const saved = await withLoading(() =>
        save.mutateAsync({
          ...values,
          siteName: values.siteName.trim(),
          metaTags: cleanMetaTags(values.metaTags),
        }),
      );
      form.setFieldsValue(saved);
      edits.saved();
      // The header and the site's language follow at once; a refresh that fails or is cut short
      // changes nothing (the next page load reads the config again).
      refreshAppConfig().catch(() => undefined);
    } catch (error) {
      const field = fieldOf(error);
      if (field && error instanceof Error)
        form.setFields([{ name: field, errors: [error.message] }]);
    }
  };

  // SPEC 2.4's external mode opens this address: without one it could only show an alert.
  const selectorServerRule = {
    validator: async (_: unknown, value: string | undefined) => {
      if (form.getFieldValue('selectorMode') === 'external' && !value?.trim())
        throw new Error(t('settings.selectorServerRequired'));
    },
  };

  const metaRule = {
    validator: async (_: unknown, rows: NameValueItem[] | undefined) => {
      for (const [index, row] of (rows ?? []).entries()) {
        const name = row.name.trim();
        if (name === '' && row.value.trim() !== '')
          throw new Error(t('settings.metaNameMissing', { row: index + 1 }));
        if (name !== '' && !metaNamePattern.test(name))
          throw new Error(t('settings.metaNameInvalid', { row: index + 1 }));
      }
    },
  };

  return (
    <FieldDefaultsProvider url={adminLibrary}>
      <Form<SiteSettings>
        form={form}
        layout="vertical"
        initialValues={settings}
        onValuesChange={edits.changed}
        onFinish={(values) => void submit(values)}
        className="atrium-site-settings"
      >
        <Flex vertical gap={16}>
          <Card size={cardSize} title={t('settings.section.site')}>
            <FormFieldItem
              name="siteName"
              data={{ type: 'text', title: t('settings.siteName') }}
              isRequired
              textLength={siteNameMaxLength}
              placeholder={t('settings.siteNamePlaceholder')}
            />
            <Form.Item
              name="siteLanguage"
              label={t('settings.siteLanguage')}
              extra={t('settings.siteLanguageHelp')}
            >
              <Select
                style={{ maxWidth: 240 }}
                options={[
                  { value: 'zh-CN', label: t('settings.siteLanguageZhCN') },
                  { value: 'en', label: t('settings.siteLanguageEn') },
                ]}
              />
            </Form.Item>
            <Form.Item name="logo" label={t('settings.logo')} extra={t('settings.logoHelp')}>
              <ImageField upload />
            </Form.Item>
            <Form.Item
              name="favicon"
              label={t('settings.favicon')}
              extra={t('settings.faviconHelp')}
              style={{ marginBottom: 0 }}
            >
              <ImageField upload />
            </Form.Item>
          </Card>

          <Card size={cardSize} title={t('settings.section.home')}>
            <Form.Item
              name="banners"
              label={t('settings.banners')}
              extra={t('settings.bannersHelp', { max: siteBannersMax })}
              style={{ marginBottom: 0 }}
            >
              <ImagesField max={siteBannersMax} size={96} />
            </Form.Item>
          </Card>

          <Card size={cardSize} title={t('settings.section.content')}>
            <Form.Item name="terms" label={t('settings.terms')} extra={t('settings.termsHelp')}>
              <FileField />
            </Form.Item>
            <Form.Item name="about" label={t('settings.about')} style={{ marginBottom: 0 }}>
              <RichTextField
                placeholder={t('settings.aboutPlaceholder')}
                minHeight={220}
                aria-label={t('settings.about')}
              />
            </Form.Item>
          </Card>

          <Card size={cardSize} title={t('settings.section.selector')}>
            <Form.Item
              name="selectorMode"
              label={t('settings.selectorMode')}
              extra={t('settings.selectorModeHelp')}
            >
              <Radio.Group
                options={[
                  { value: 'builtin', label: t('settings.selectorBuiltin') },
                  { value: 'external', label: t('settings.selectorExternal') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="selectorServer"
              label={t('settings.selectorServer')}
              extra={t('settings.selectorServerHelp')}
              dependencies={['selectorMode']}
              rules={[selectorServerRule]}
              style={{ marginBottom: 0 }}
            >
              <Input placeholder="https://" maxLength={1000} allowClear />
            </Form.Item>
          </Card>

          <Card size={cardSize} title={t('settings.section.advanced')}>
            <Form.Item
              name="metaTags"
              label={t('settings.metaTags')}
              extra={t('settings.metaTagsHelp')}
              rules={[metaRule]}
            >
              <NameValueList
                max={siteMetaTagsMax}
                nameMaxLength={siteMetaNameMaxLength}
                valueMaxLength={siteMetaValueMaxLength}
              />
            </Form.Item>
            <Form.Item
              name="advanced"
              label={t('settings.advanced')}
              extra={t('settings.advancedHelp')}
              rules={[jsonRule(t('settings.advanced'))]}
              style={{ marginBottom: 0 }}
            >
              <CodeEditorField
                minLines={6}
                maxLines={30}
                placeholder="{}"
                aria-label={t('settings.advanced')}
              />
            </Form.Item>
          </Card>

          <Flex gap={8} justify="flex-end" wrap className="atrium-site-settings-actions">
            <Button
              icon={<UndoOutlined />}
              disabled={save.isPending}
              onClick={() => {
                form.resetFields();
                form.setFieldsValue(settings);
                edits.saved();
              }}
            >
              {t('settings.discard')}
            </Button>
            <Button
              type="primary"
              htmlType="submit"
              icon={<SaveOutlined />}
              loading={save.isPending}
            >
              {t('common.save')}
            </Button>
          </Flex>
        </Flex>
      </Form>
    </FieldDefaultsProvider>
  );
}
