import type { ReactNode } from 'react';

/**
 * The visual mark of a required field, for every antd form (set once in AppProviders). antd's own
 * mark is a CSS "*" that screen readers read into the field's name; this one is hidden from them,
 * since the field itself says `aria-required`. The "*" is drawn by CSS, so the label's text (what
 * tests and people find the field by) stays the label alone.
 */
export function requiredMark(label: ReactNode, { required }: { required: boolean }): ReactNode {
  return (
    <>
      {required ? <span className="atrium-required-mark" aria-hidden="true" /> : null}
      {label}
    </>
  );
}
