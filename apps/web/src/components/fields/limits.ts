/** The field constants of SPEC 9. */
export const FieldLimits = {
  /** Single image preview, px. */
  imagePreviewSize: 60,
  /** Images and files fields. */
  listMax: 999,
  codeMinLines: 5,
  codeMaxLines: 100,
  /** The rich editor's popups sit above dialogs and drawers (theirs are 1000). */
  richZIndex: 10000,
  /** A value given before the rich editor is ready is tried again at this pace until it takes. */
  richRetryMs: 100,
  textLength: 50,
} as const;
