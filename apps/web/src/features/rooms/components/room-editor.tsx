import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import type {
  AdminRoomRecord,
  GenerationParams,
  SuggestedPrompt,
} from '@atrium/shared/contract/chat';
import { AudioField } from '@/components/fields/audio-field/audio-field';
import { CodeEditorField } from '@/components/fields/code-editor-field/code-editor-field';
import { FieldDefaultsProvider } from '@/components/fields/field-defaults';
import { ImageField } from '@/components/fields/image-field/image-field';
import { NameValueList } from '@/components/fields/name-value-list/name-value-list';
import { RichTextField } from '@/components/fields/rich-text-field/rich-text-field';
import { roomDownloadsMax } from '@atrium/shared/contract/chat';
import { FilesField } from '@/components/fields/files-field/files-field';
import { VideoField } from '@/components/fields/video-field/video-field';
import { useSmallWindow } from '@/lib/use-media-query';
import { useModelOptions } from '../api/admin-rooms';
import { useSaveRoom } from '../api/save-room';
import { useRoomsT } from '../i18n';
import { BudgetFields } from '@/components/fields/budget-fields';
import { noBudget, type ChatBudget } from '@atrium/shared/contract/chat-budget';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';
import { asyncHandler } from '@/lib/async-handler';

interface Values {
  title: string;
  cover: string;
  description: string;
  modelId: number;
  systemPrompt: string;
  params: string;
  prompts: SuggestedPrompt[];
  introVideo: string;
  introAudio: string;
  downloads: string[];
  budget: ChatBudget;
  enabled: boolean;
  sort: number;
}

/** The parameters text as an object, or undefined when it is not a JSON object. */
export function parseParams(text: string): GenerationParams | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as GenerationParams)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface RoomEditorProps {
  /** undefined: closed; null: a new room. */
  room: AdminRoomRecord | null | undefined;
  onClose: () => void;
}

const FORM_ID = 'aigc-room-form';

/** Pictures, video and audio come from the admin file library. */
const adminLibrary = '/admin/data/file_manager';

/** Create or edit a room, with the form fields of SPEC 2.5 and 2.6. */
export function RoomEditor({ room, onClose }: RoomEditorProps) {
  const t = useRoomsT();
  const small = useSmallWindow();
  const save = useSaveRoom();
  // Edits not saved yet: closing asks first (the form is new each time the editor opens).
  const edits = useUnsavedEdits(room !== undefined, t('rooms.discardChanges'));
  const close = edits.guard(onClose);
  return (
    <Drawer
      open={room !== undefined}
      title={room ? t('rooms.editTitle') : t('rooms.createTitle')}
      size={small ? '100%' : 640}
      onClose={close}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button type="primary" htmlType="submit" form={FORM_ID} loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {room !== undefined && (
        <FieldDefaultsProvider url={adminLibrary}>
          <RoomForm
            editing={room ?? undefined}
            save={save.mutateAsync}
            onChange={edits.changed}
            onSaved={onClose}
          />
        </FieldDefaultsProvider>
      )}
    </Drawer>
  );
}

/** Mounted afresh each time the editor opens, so its initial values are the room's. */
function RoomForm({
  editing,
  save,
  onChange,
  onSaved,
}: {
  editing: AdminRoomRecord | undefined;
  save: ReturnType<typeof useSaveRoom>['mutateAsync'];
  onChange: () => void;
  onSaved: () => void;
}) {
  const t = useRoomsT();
  const models = useModelOptions(true);
  return (
    <Form<Values>
      name={FORM_ID}
      layout="vertical"
      onValuesChange={onChange}
      initialValues={{
        title: editing?.title ?? '',
        cover: editing?.cover ?? '',
        description: editing?.description ?? '',
        modelId: editing?.modelId ?? 0,
        systemPrompt: editing?.systemPrompt ?? '',
        params: JSON.stringify(editing?.params ?? { temperature: 0.7 }, null, 2),
        prompts: editing?.prompts ?? [],
        introVideo: editing?.introVideo ?? '',
        introAudio: editing?.introAudio ?? '',
        downloads: editing?.downloads ?? [],
        budget: editing?.budget ?? noBudget,
        enabled: editing?.enabled ?? true,
        sort: editing?.sort ?? 0,
      }}
      onFinish={asyncHandler(async (values: Values) => {
        try {
          await save({
            id: editing?.id ?? 0,
            title: values.title.trim(),
            cover: values.cover,
            description: values.description,
            modelId: values.modelId,
            systemPrompt: values.systemPrompt,
            params: parseParams(values.params) ?? {},
            prompts: (values.prompts ?? []).filter((p) => p.value?.trim()),
            introVideo: values.introVideo,
            introAudio: values.introAudio,
            downloads: values.downloads ?? [],
            budget: { ...noBudget, ...values.budget },
            enabled: values.enabled,
            sort: values.sort,
          });
          onSaved();
        } catch {
          // The API client has shown why; the editor stays open to fix it.
        }
      })}
    >
      <Form.Item
        name="title"
        label={t('rooms.fieldTitle')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('rooms.required', { field: t('rooms.fieldTitle') }),
          },
        ]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="cover" label={t('rooms.fieldCover')}>
        <ImageField size={96} />
      </Form.Item>
      <Form.Item name="modelId" label={t('rooms.fieldModel')}>
        <Select
          loading={models.isLoading}
          options={[
            { value: 0, label: t('rooms.fieldModelNone') },
            ...(models.data ?? []).map((m) => ({
              value: m.id,
              label: `${m.title} · ${m.providerName} (${m.name})${m.enabled ? '' : t('rooms.fieldModelDisabled')}`,
            })),
          ]}
        />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('rooms.fieldDescription')}
        extra={t('rooms.fieldDescriptionHint')}
      >
        <RichTextField minHeight={160} aria-label={t('rooms.fieldDescription')} />
      </Form.Item>
      <Form.Item name="systemPrompt" label={t('rooms.fieldSystemPrompt')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 14 }} maxLength={20_000} />
      </Form.Item>
      <Form.Item
        name="params"
        label={t('rooms.fieldParams')}
        extra={t('rooms.fieldParamsHint')}
        rules={[
          {
            validator: async (_rule, value: string) => {
              if (parseParams(value ?? '') === undefined) throw new Error(t('rooms.paramsInvalid'));
            },
          },
        ]}
      >
        <CodeEditorField
          mode="json"
          minLines={5}
          maxLines={30}
          aria-label={t('rooms.fieldParams')}
        />
      </Form.Item>
      <Form.Item name="prompts" label={t('rooms.fieldPrompts')}>
        <NameValueList max={20} nameMaxLength={100} valueMaxLength={4000} />
      </Form.Item>
      <Form.Item name="introVideo" label={t('rooms.fieldIntroVideo')}>
        <VideoField />
      </Form.Item>
      <Form.Item name="introAudio" label={t('rooms.fieldIntroAudio')}>
        <AudioField />
      </Form.Item>
      <Form.Item
        name="downloads"
        label={t('rooms.fieldDownloads')}
        extra={t('rooms.fieldDownloadsHint', { max: roomDownloadsMax })}
      >
        <FilesField max={roomDownloadsMax} />
      </Form.Item>
      <Form.Item label={t('rooms.fieldBudget')} extra={t('rooms.fieldBudgetHint')}>
        <BudgetFields prefix={['budget']} />
      </Form.Item>
      <Space size={32} wrap>
        <Form.Item name="enabled" label={t('rooms.fieldEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="sort" label={t('rooms.fieldSort')}>
          <InputNumber min={-1_000_000} max={1_000_000} />
        </Form.Item>
      </Space>
    </Form>
  );
}
