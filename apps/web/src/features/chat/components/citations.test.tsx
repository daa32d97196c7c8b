import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test-utils/render';
import { unreadableReason } from '../docs-i18n';
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

  it('names why a file cannot be read in the member’s language', () => {
    expect(unreadableReason('This file cannot be read: it is not a valid PDF (x)')).toBe(
      'chatDocs.reason.pdf',
    );
    expect(unreadableReason('This file cannot be read: it is protected by a password')).toBe(
      'chatDocs.reason.password',
    );
    expect(
      unreadableReason(
        'This file cannot be read: it has no text to read (a scanned PDF holds only images)',
      ),
    ).toBe('chatDocs.reason.scanned');
    // The bounds on reading (issue 26): a decompression bomb, too much text, too many pages.
    expect(unreadableReason('This file cannot be read: it is too large when unpacked')).toBe(
      'chatDocs.reason.unpacked',
    );
    expect(
      unreadableReason('This file cannot be read: it holds more than 5000000 characters of text'),
    ).toBe('chatDocs.reason.tooMuchText');
    expect(unreadableReason('This file cannot be read: it has more than 3000 pages')).toBe(
      'chatDocs.reason.pages',
    );
    expect(
      unreadableReason('This file cannot be read: reading it stopped 3 times before the end'),
    ).toBe('chatDocs.reason.stopped');
    expect(unreadableReason('This file cannot be read: it is larger than 50 MB')).toBe(
      'chatDocs.reason.large',
    );
    expect(unreadableReason('something else')).toBe('chatDocs.reason.other');
  });
});
