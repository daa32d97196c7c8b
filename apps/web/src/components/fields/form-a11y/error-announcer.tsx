import { useCallback, useState, type ReactNode } from 'react';

interface FieldState {
  name?: unknown;
  errors?: ReactNode[];
}

interface Said {
  key: string;
  text: string;
}

/** The form's current field errors, field by field, as plain text. */
function currentErrors(fields: FieldState[]): Said[] {
  return fields.flatMap((field) => {
    const text = (field.errors ?? [])
      .filter((error): error is string => typeof error === 'string' && error !== '')
      .join(' ');
    return text ? [{ key: JSON.stringify(field.name ?? null), text }] : [];
  });
}

/**
 * Reads a form's field errors out to screen readers: pass `onFieldsChange` to the Form and render
 * `announcer` inside it. The visible error stays under its field (antd ties it with
 * `aria-describedby` and `aria-invalid`); this polite region holds one line per field in error,
 * so a new error is read once when it appears and a corrected one leaves without a word.
 */
export function useErrorAnnouncer(): {
  onFieldsChange: (changed: FieldState[], all: FieldState[]) => void;
  announcer: ReactNode;
} {
  const [said, setSaid] = useState<Said[]>([]);
  const onFieldsChange = useCallback((_changed: FieldState[], all: FieldState[]) => {
    const next = currentErrors(all);
    setSaid((previous) => (JSON.stringify(previous) === JSON.stringify(next) ? previous : next));
  }, []);
  return {
    onFieldsChange,
    announcer: (
      <div className="atrium-sr-only" role="status" aria-live="polite">
        {said.map((line) => (
          <div key={line.key}>{line.text}</div>
        ))}
      </div>
    ),
  };
}
