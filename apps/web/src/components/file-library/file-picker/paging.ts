/** What a page of the list (or the trash) answered: enough to tell whether it is past the end. */
export interface PageAnswer {
  page: number;
  pageSize: number;
  total: number;
  records: readonly unknown[];
}

/**
 * The page to show instead of the one that answered, when it came back empty although the list
 * has files: the last page there is (issue 28: moving or deleting every file of the last page, or
 * another tab doing so, left "No Records" beside "6 in all"). Undefined when the answer stands.
 */
export function pageToShow(answer: PageAnswer | undefined): number | undefined {
  if (!answer || answer.records.length > 0 || answer.total <= 0) return undefined;
  const last = Math.max(1, Math.ceil(answer.total / answer.pageSize));
  return answer.page > last ? last : undefined;
}
