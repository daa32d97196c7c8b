import { useEffect, useState, type DragEvent } from 'react';

/** Files on the clipboard or in a drag, when it carries any. */
function filesOf(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : [];
}

/** A pasted screenshot is called image.png by every browser: give it a name of its own. */
export function pastedName(file: File, at: Date): File {
  if (file.name && file.name !== 'image.png') return file;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return new File([file], `pasted-${stamp}.${ext}`, {
    type: file.type,
    lastModified: at.getTime(),
  });
}

/**
 * Files pasted anywhere in the page or dropped on the gallery go to `take` while `enabled`
 * (the picker's upload into the current category); `dropping` says a drag with files is over it.
 */
export function useDropPaste(enabled: boolean, take: (files: readonly File[]) => void) {
  const [dropping, setDropping] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = filesOf(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      const now = new Date();
      take(files.map((file) => pastedName(file, now)));
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  });

  const dragHasFiles = (event: DragEvent) =>
    enabled && Array.from(event.dataTransfer.types).includes('Files');
  const handlers = {
    onDragOver: (event: DragEvent) => {
      if (!dragHasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      if (!dropping) setDropping(true);
    },
    onDragLeave: (event: DragEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !event.currentTarget.contains(next)) setDropping(false);
    },
    onDrop: (event: DragEvent) => {
      setDropping(false);
      if (!dragHasFiles(event)) return;
      event.preventDefault();
      const files = filesOf(event.dataTransfer);
      if (files.length > 0) take(files);
    },
  };
  return { dropping, handlers };
}
