import { useMemo } from 'react';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  mode: 'json' | 'text';
  minHeight: string;
  maxHeight: string;
  dark: boolean;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  /** The writing area's name. */
  label?: string;
  invalid: boolean;
}

/** A fixed line height, so "n lines tall" is exact. */
const codeLineHeightPx = 20;

// Set on the scroller, which holds both gutters and content, so line numbers stay level.
const look = EditorView.theme({
  '&': { fontSize: '13px' },
  '.cm-scroller': {
    lineHeight: `${codeLineHeightPx}px`,
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  '&.cm-focused': { outline: 'none' },
});

/** CodeMirror 6 itself; loaded on demand, so pages without an editor never fetch it. */
export function CodeEditor(props: CodeEditorProps) {
  const { id, label, invalid } = props;
  // The field's id and state go on the writing area itself (the contenteditable), so the form's
  // <label for> names it and a screen reader hears its state (axe aria-input-field-name).
  const extensions = useMemo(
    () => [
      look,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        ...(id ? { id } : {}),
        ...(label ? { 'aria-label': label } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
      }),
      ...(props.mode === 'json' ? [json()] : []),
    ],
    [props.mode, id, label, invalid],
  );
  return (
    <CodeMirror
      value={props.value}
      onChange={props.onChange}
      extensions={extensions}
      theme={props.dark ? 'dark' : 'light'}
      minHeight={props.minHeight}
      maxHeight={props.maxHeight}
      placeholder={props.placeholder}
      editable={!props.disabled}
      readOnly={props.disabled}
      basicSetup={{ foldGutter: true, highlightActiveLine: !props.disabled }}
    />
  );
}
