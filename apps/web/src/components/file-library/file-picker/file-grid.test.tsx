import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { tFiles } from '@/components/file-library/i18n';
import { FileGrid } from './file-grid';

afterEach(cleanup);

const grid = (loading: boolean) => (
  <FileGrid
    records={[]}
    checkedIds={new Set()}
    onToggle={() => undefined}
    loading={loading}
    page={1}
    pageSize={10}
    total={0}
    onPage={() => undefined}
  />
);

describe('FileGrid', () => {
  it('says "No Records" only once the list has answered, never behind the spinner', () => {
    const view = render(grid(true));
    expect(screen.queryByText(tFiles('files.noRecords'))).toBeNull();
    view.rerender(grid(false));
    expect(screen.getByText(tFiles('files.noRecords'))).toBeInTheDocument();
  });
});
