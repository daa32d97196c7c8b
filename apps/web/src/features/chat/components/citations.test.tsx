import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test-utils/render';
import { Citations } from './citations';

describe('Citations', () => {
  it('shows each cited passage as a chip that opens the passage with its file and page', async () => {
    renderWithProviders(
      <Citations
        citations={[
          {
            n: 1,
            name: 'manual.pdf',
            path: '/data/file/0123456789abcdef01234567/manual.pdf',
            page: 2,
            text: 'The zebra migration happens every spring.',
          },
          { n: 2, name: 'notes.txt', path: '/data/file/aa/notes.txt', page: 0, text: 'Notes.' },
        ]}
      />,
    );
    const chip = screen.getByRole('button', { name: /\[1\] manual\.pdf · (第 2 页|page 2)/ });
    expect(screen.getByRole('button', { name: /\[2\] notes\.txt$/ })).toBeTruthy();
    fireEvent.click(chip);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('The zebra migration happens every spring.')).toBeTruthy();
    expect(within(dialog).getByRole('link').getAttribute('href')).toMatch(/manual\.pdf$/);
  });
});
