/** What the field needs of a ready editor. */
export interface RichTextHandle {
  /** Replaces the content without reporting it as a user change. */
  setHTML(html: string): void;
}

/** The HTML a field reports: an editor with nothing typed in it is "no value". */
export function reportedHtml(editor: { isEmpty: boolean; getHTML(): string }): string {
  return editor.isEmpty ? '' : editor.getHTML();
}
