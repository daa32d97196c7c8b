import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  BoldOutlined,
  CodeOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LineOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Form, Input, Modal, Select, Tooltip } from 'antd';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { assetUrl } from '@/lib/urls';
import { useFieldsT } from '../i18n';
import { FieldLimits } from '../limits';
import { PathPicker } from '../path-picker';
import { contentAttributes, type ContentAria } from './rich-text-attributes';
import { reportedHtml, type RichTextHandle } from './rich-text-handle';

export interface RichTextEditorProps {
  /** An editor is ready: its handle. */
  onReady: (handle: RichTextHandle) => void;
  /**
   * That editor is gone. TipTap destroys a replaced editor after its successor is created, so
   * this may come after the next `onReady`: the handle says which one went.
   */
  onGone: (handle: RichTextHandle) => void;
  onChange: (html: string) => void;
  placeholder?: string;
  minHeight: number;
  disabled?: boolean;
  id?: string;
  aria?: ContentAria;
  url?: string;
  external?: boolean;
  /** Whether the image button may open the picker; without it the button is left out. */
  canPickImages?: boolean;
}

const headingLevels = [1, 2, 3, 4] as const;
type Level = (typeof headingLevels)[number];

/** Addresses a link may take; the server's sanitiser drops anything else anyway. */
const linkAddress = /^(https?:\/\/\S+|mailto:\S+|\/(?![/\\])\S*)$/i;

function QuoteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true">
      <path d="M7.2 6C4.9 7.3 3.5 9.5 3.5 12.6V18h6.2v-6.2H6.6c.1-1.9 1-3.3 2.6-4.3L7.2 6zm10 0c-2.3 1.3-3.7 3.5-3.7 6.6V18h6.2v-6.2h-3.1c.1-1.9 1-3.3 2.6-4.3L17.2 6z" />
    </svg>
  );
}

function CodeBlockIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M10 9l-3 3 3 3M14 9l3 3-3 3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function useToolbarState(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      level: (headingLevels.find((level) => e.isActive('heading', { level })) ?? 0) as Level | 0,
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
      empty: e.isEmpty,
    }),
  });
}

interface ToolProps {
  label: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}

function Tool({ label, icon, active = false, disabled, onClick }: ToolProps) {
  return (
    <Tooltip title={label}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        icon={icon}
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        // Keep the selection in the editor: a focused button would take it away.
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      />
    </Tooltip>
  );
}

function LinkDialog({
  open,
  initial,
  onClose,
  onSubmit,
}: {
  open: boolean;
  initial: { href: string; newTab: boolean };
  onClose: () => void;
  onSubmit: (link: { href: string; newTab: boolean }) => void;
}) {
  const t = useFieldsT();
  const [form] = Form.useForm<{ href: string; newTab: boolean }>();
  return (
    <Modal
      open={open}
      title={t('fields.rich.linkTitle')}
      okText={t('fields.rich.confirm')}
      cancelText={t('fields.rich.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      // The dialog's focus trap starts on its ×: the address box takes the focus once it is open.
      afterOpenChange={(visible) => visible && form.focusField('href')}
      destroyOnHidden
      width={420}
      zIndex={FieldLimits.richZIndex}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(values) => onSubmit({ href: values.href.trim(), newTab: values.newTab })}
        preserve={false}
      >
        <Form.Item
          name="href"
          label={t('fields.rich.linkAddress')}
          rules={[
            {
              validator: async (_, value: unknown) => {
                if (typeof value !== 'string' || !linkAddress.test(value.trim()))
                  throw new Error(t('fields.rich.linkInvalid'));
              },
            },
          ]}
        >
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="newTab" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{t('fields.rich.linkNewTab')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Toolbar({
  editor,
  disabled,
  onLink,
  onImage,
}: {
  editor: Editor;
  disabled?: boolean;
  onLink: () => void;
  /** Absent when the user may not open the picker. */
  onImage: (() => void) | undefined;
}) {
  const t = useFieldsT();
  const state = useToolbarState(editor);
  const chain = () => editor.chain().focus();
  const off = disabled === true;
  return (
    <div className="atrium-rte-toolbar" role="toolbar" aria-label={t('fields.rich.toolbar')}>
      <Select<Level | 0>
        size="small"
        value={state.level}
        disabled={off}
        aria-label={t('fields.rich.blockType')}
        style={{ width: 96 }}
        popupMatchSelectWidth={false}
        options={[
          { value: 0, label: t('fields.rich.paragraph') },
          ...headingLevels.map((level) => ({
            value: level,
            label: t('fields.rich.heading', { level }),
          })),
        ]}
        onChange={(level) => {
          if (level === 0) chain().setParagraph().run();
          else chain().setHeading({ level }).run();
        }}
      />
      <span className="atrium-rte-sep" />
      <Tool
        label={t('fields.rich.bold')}
        icon={<BoldOutlined />}
        active={state.bold}
        disabled={off}
        onClick={() => chain().toggleBold().run()}
      />
      <Tool
        label={t('fields.rich.italic')}
        icon={<ItalicOutlined />}
        active={state.italic}
        disabled={off}
        onClick={() => chain().toggleItalic().run()}
      />
      <Tool
        label={t('fields.rich.underline')}
        icon={<UnderlineOutlined />}
        active={state.underline}
        disabled={off}
        onClick={() => chain().toggleUnderline().run()}
      />
      <Tool
        label={t('fields.rich.strike')}
        icon={<StrikethroughOutlined />}
        active={state.strike}
        disabled={off}
        onClick={() => chain().toggleStrike().run()}
      />
      <Tool
        label={t('fields.rich.code')}
        icon={<CodeOutlined />}
        active={state.code}
        disabled={off}
        onClick={() => chain().toggleCode().run()}
      />
      <span className="atrium-rte-sep" />
      <Tool
        label={t('fields.rich.bulletList')}
        icon={<UnorderedListOutlined />}
        active={state.bulletList}
        disabled={off}
        onClick={() => chain().toggleBulletList().run()}
      />
      <Tool
        label={t('fields.rich.orderedList')}
        icon={<OrderedListOutlined />}
        active={state.orderedList}
        disabled={off}
        onClick={() => chain().toggleOrderedList().run()}
      />
      <Tool
        label={t('fields.rich.blockquote')}
        icon={<QuoteIcon />}
        active={state.blockquote}
        disabled={off}
        onClick={() => chain().toggleBlockquote().run()}
      />
      <Tool
        label={t('fields.rich.codeBlock')}
        icon={<CodeBlockIcon />}
        active={state.codeBlock}
        disabled={off}
        onClick={() => chain().toggleCodeBlock().run()}
      />
      <Tool
        label={t('fields.rich.rule')}
        icon={<LineOutlined />}
        disabled={off}
        onClick={() => chain().setHorizontalRule().run()}
      />
      <span className="atrium-rte-sep" />
      <Tool
        label={t('fields.rich.link')}
        icon={<LinkOutlined />}
        active={state.link}
        disabled={off}
        onClick={onLink}
      />
      <Tool
        label={t('fields.rich.unlink')}
        icon={<DisconnectOutlined />}
        disabled={off || !state.link}
        onClick={() => chain().extendMarkRange('link').unsetLink().run()}
      />
      {onImage ? (
        <Tool
          label={t('fields.rich.image')}
          icon={<PictureOutlined />}
          disabled={off}
          onClick={onImage}
        />
      ) : null}
      <span className="atrium-rte-sep" />
      <Tool
        label={t('fields.rich.undo')}
        icon={<UndoOutlined />}
        disabled={off || !state.canUndo}
        onClick={() => chain().undo().run()}
      />
      <Tool
        label={t('fields.rich.redo')}
        icon={<RedoOutlined />}
        disabled={off || !state.canRedo}
        onClick={() => chain().redo().run()}
      />
    </div>
  );
}

/** TipTap 3 with its toolbar; loaded on demand by RichTextField. */
export function RichTextEditor(props: RichTextEditorProps) {
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const [linking, setLinking] = useState<{ href: string; newTab: boolean } | null>(null);
  const [picking, setPicking] = useState(false);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [...headingLevels] },
        // An extra empty paragraph after every list or quote would end up in the saved HTML.
        trailingNode: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          HTMLAttributes: { target: null, rel: null },
        },
      }),
      Image.configure({ allowBase64: false }),
    ],
    editable: !props.disabled,
    editorProps: { attributes: contentAttributes(props) },
    onCreate: ({ editor: created }) => {
      const handle: RichTextHandle = {
        setHTML: (html) => {
          if (!created.isDestroyed) created.commands.setContent(html, { emitUpdate: false });
        },
      };
      created.on('destroy', () => latest.current.onGone(handle));
      latest.current.onReady(handle);
    },
    onUpdate: ({ editor: changed }) => latest.current.onChange(reportedHtml(changed)),
  });

  useEffect(() => {
    if (!editor.isDestroyed) editor.setEditable(!props.disabled, false);
  }, [editor, props.disabled]);

  // The form sets aria-invalid and the error's id as it validates: keep the writing area in step.
  const attributesKey = JSON.stringify(contentAttributes(props));
  useEffect(() => {
    if (editor.isDestroyed) return;
    const attributes = contentAttributes(latest.current);
    editor.setOptions({ editorProps: { ...editor.options.editorProps, attributes } });
  }, [editor, attributesKey]);

  const empty = useEditorState({ editor, selector: ({ editor: e }) => e.isEmpty });

  const openLink = () => {
    const attrs = editor.getAttributes('link') as { href?: string; target?: string | null };
    setLinking({ href: attrs.href ?? '', newTab: attrs.target === '_blank' });
  };

  return (
    <div className="atrium-rte">
      <Toolbar
        editor={editor}
        disabled={props.disabled}
        onLink={openLink}
        onImage={props.canPickImages === false ? undefined : () => setPicking(true)}
      />
      <div className="atrium-rte-body" style={{ minHeight: props.minHeight }}>
        {empty && props.placeholder ? (
          <div className="atrium-rte-placeholder" aria-hidden="true">
            {props.placeholder}
          </div>
        ) : null}
        <EditorContent editor={editor} />
      </div>
      <LinkDialog
        open={linking !== null}
        initial={linking ?? { href: '', newTab: false }}
        onClose={() => setLinking(null)}
        onSubmit={({ href, newTab }) => {
          editor
            .chain()
            .focus()
            .extendMarkRange('link')
            .setLink({
              href,
              target: newTab ? '_blank' : null,
              rel: newTab ? 'noopener noreferrer' : null,
            })
            .run();
          setLinking(null);
        }}
      />
      <PathPicker
        category="image"
        open={picking}
        max={20}
        url={props.url}
        external={props.external}
        onClose={() => setPicking(false)}
        onPick={(paths) =>
          editor
            .chain()
            .focus()
            .insertContent(paths.map((path) => ({ type: 'image', attrs: { src: assetUrl(path) } })))
            .run()
        }
      />
    </div>
  );
}
