import { fileExtension } from '@/components/file-library/upload-button/upload-rules';
import type { PickedFile } from './selection';

function listOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === 'object' && data !== null) {
    for (const key of ['items', 'list', 'data'] as const) {
      const value = (data as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * Items an external selector posted back (SPEC 2.4: "a list of items that have a path"), in the
 * picker's own result shape. Anything without a path is dropped.
 */
export function parseSelectorItems(data: unknown, category: string): PickedFile[] {
  return listOf(data).flatMap((raw) => {
    if (typeof raw !== 'object' || raw === null) return [];
    const item = raw as Record<string, unknown>;
    const path = text(item.path);
    if (!path) return [];
    const filename =
      text(item.filename) ?? text(item.name) ?? path.slice(path.lastIndexOf('/') + 1);
    return [
      {
        category,
        filename,
        path,
        fullPath: text(item.fullPath) ?? path,
        type: text(item.type) ?? fileExtension(path),
      },
    ];
  });
}
