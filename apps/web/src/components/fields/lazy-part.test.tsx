import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { lazyPart, PartBoundary } from './lazy-part';

afterEach(cleanup);

function Editor({ word }: { word: string }) {
  return <p>{word}</p>;
}

/** A field showing the part behind a placeholder, as the code and rich-text fields do. */
function fieldOf(usePart: ReturnType<typeof lazyPart<{ word: string }>>) {
  return function Field({ word }: { word: string }) {
    const [Part] = usePart();
    return (
      <Suspense fallback={<span>loading</span>}>
        <Part word={word} />
      </Suspense>
    );
  };
}

describe('lazyPart', () => {
  it('fetches the code once: a field mounted after it arrived shows the part at once', async () => {
    let loads = 0;
    const Field = fieldOf(
      lazyPart(async () => {
        loads += 1;
        return { default: Editor };
      }),
    );
    const first = render(<Field word="first" />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('first')).toBeInTheDocument();
    first.unmount();

    // A lazy component made per mount suspends here again, its code in hand: the placeholder
    // shows for a moment and what follows it moves.
    render(<Field word="second" />);
    expect(screen.queryByText('loading')).toBeNull();
    expect(screen.getByText('second')).toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it('fetches again after a failed download when asked, for fields mounted later too', async () => {
    let loads = 0;
    const usePart = lazyPart(async () => {
      loads += 1;
      if (loads === 1) throw new Error('offline');
      return { default: Editor };
    });
    // As the code and rich-text fields hold it: the failure stays inside the field, whose Retry
    // asks for a fresh download.
    function Field({ word }: { word: string }) {
      const [Part, reload] = usePart();
      return (
        <PartBoundary reload={reload}>
          <Suspense fallback={<span>loading</span>}>
            <Part word={word} />
          </Suspense>
        </PartBoundary>
      );
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const first = render(<Field word="again" />);
      const retry = within(await screen.findByRole('alert')).getByRole('button');
      expect(loads).toBe(1);
      await act(async () => retry.click());
      expect(await screen.findByText('again')).toBeInTheDocument();
      first.unmount();
    } finally {
      quiet.mockRestore();
    }
    render(<Field word="later" />);
    expect(screen.getByText('later')).toBeInTheDocument();
    expect(loads).toBe(2);
  });
});
