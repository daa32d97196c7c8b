import { Suspense } from 'react';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { Rule } from 'antd/es/form';
import { usePreferencesStore } from '@/stores/preferences-store';
import { tFields, useFieldsT } from '../i18n';
import { lazyPart, PartBoundary } from '../lazy-part';
import { FieldLimits } from '../limits';
import { checkJson } from './json-check';
import './code-editor-field.css';

/** Lines are 20 px (see code-editor.tsx); the frame adds the editor's own padding. */
const lineHeight = 20;
const framePadding = 8;

/** The editor's code, fetched when a field first shows it and shared by every field after. */
const useEditor = lazyPart(async () => ({ default: (await import('./code-editor')).CodeEditor }));

export interface CodeEditorFieldProps {
  value?: string;
  onChange?: (value: string) => void;
  /** json (SPEC 9 default) checks the text and says where it breaks. */
  mode?: 'json' | 'text';
  /** Height in lines while the text is short (at least 5). */
  minLines?: number;
  /** Height in lines the editor grows to before it scrolls (at most 100). */
  maxLines?: number;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  /** The writing area's name (a contenteditable is not named by the form's <label for>). */
  'aria-label'?: string;
}

const clampLines = (lines: number) =>
  Math.min(FieldLimits.codeMaxLines, Math.max(FieldLimits.codeMinLines, Math.round(lines)));

/** CSS heights for the editor: lines asked for, kept within 5 to 100 (SPEC 9). */
export function editorHeights(minLines: number, maxLines: number) {
  const low = clampLines(minLines);
  const high = Math.max(low, clampLines(maxLines));
  return {
    minHeight: `${low * lineHeight + framePadding}px`,
    maxHeight: `${high * lineHeight + framePadding}px`,
  };
}

/** For a Form.Item: refuses text that is not JSON, naming the field. */
export function jsonRule(label: string): Rule {
  return {
    validator: async (_, value: unknown) => {
      if (typeof value === 'string' && checkJson(value)) {
        throw new Error(tFields('fields.json.refused', { label }));
      }
    },
  };
}

/** Code editor field (SPEC 2.6): CodeMirror 6, json by default, 5 to 100 lines tall. */
export function CodeEditorField({
  value = '',
  onChange,
  mode = 'json',
  minLines = FieldLimits.codeMinLines,
  maxLines = FieldLimits.codeMaxLines,
  placeholder,
  disabled,
  id,
  'aria-label': ariaLabel,
}: CodeEditorFieldProps) {
  const t = useFieldsT();
  const dark = usePreferencesStore((s) => s.theme === 'dark');
  const [Editor, reloadEditor] = useEditor();
  const { minHeight, maxHeight } = editorHeights(minLines, maxLines);
  const error = mode === 'json' ? checkJson(value) : null;

  return (
    <div
      className={error ? 'atrium-code-field is-invalid' : 'atrium-code-field'}
      data-disabled={disabled ? '' : undefined}
    >
      <PartBoundary reload={reloadEditor}>
        <Suspense
          fallback={
            <div className="atrium-code-loading" style={{ minHeight }} aria-busy="true">
              {t('fields.editorLoading')}
            </div>
          }
        >
          <Editor
            id={id}
            label={ariaLabel}
            value={value}
            onChange={(next) => onChange?.(next)}
            mode={mode}
            minHeight={minHeight}
            maxHeight={maxHeight}
            dark={dark}
            placeholder={placeholder}
            disabled={disabled}
            invalid={error !== null}
          />
        </Suspense>
      </PartBoundary>
      {mode === 'json' && value.trim() !== '' ? (
        <div className={error ? 'atrium-code-status is-error' : 'atrium-code-status'}>
          {error ? (
            <span role="alert">
              <CloseCircleFilled />{' '}
              {t('fields.json.invalidAt', {
                line: error.line,
                column: error.column,
                message: error.message,
              })}
            </span>
          ) : (
            <span>
              <CheckCircleFilled /> {t('fields.json.valid')}
            </span>
          )}
        </div>
      ) : null}
    </div>
  );
}
