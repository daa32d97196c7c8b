import { useCallback, useState, type ReactNode } from 'react';

interface ChangedField {
  errors?: ReactNode[];
}

/**
 * Reads a form's new field errors out to screen readers: pass `onFieldsChange` to the Form and
 * render `announcer` inside it. The visible error stays under its field (antd ties it with
 * `aria-describedby` and `aria-invalid`); this polite region says it once when it appears.
 */
export function useErrorAnnouncer(): {
  onFieldsChange: (changed: ChangedField[]) => void;
  announcer: ReactNode;
} {
  const [said, setSaid] = useState('');
  const onFieldsChange = useCallback((changed: ChangedField[]) => {
    const errors = changed
      .flatMap((field) => field.errors ?? [])
      .filter((error): error is string => typeof error === 'string' && error !== '');
    if (errors.length > 0) setSaid(errors.join(' '));
  }, []);
  return {
    onFieldsChange,
    announcer: (
      <div className="atrium-visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {said}
      </div>
    ),
  };
}
