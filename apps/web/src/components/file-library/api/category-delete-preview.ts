import type { CategoryDeletePreviewResponse } from '@atrium/shared/contract/files';
import { fileManagerData } from './file-manager-client';

/**
 * What deleting category `id` would move where, and the places using its files
 * (`categoryDeletePreview`, issue 28): asked just before the question, never cached.
 */
export function fetchCategoryDeletePreview(
  url: string,
  category: string,
  id: number,
): Promise<CategoryDeletePreviewResponse> {
  return fileManagerData(url, category, 'categoryDeletePreview', { id });
}
