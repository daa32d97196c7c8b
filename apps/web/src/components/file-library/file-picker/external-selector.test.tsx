import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles } from '@/components/file-library/i18n';
import { tFields } from '@/components/fields/i18n';
import { ImageField } from '@/components/fields/image-field/image-field';
import { VideoField } from '@/components/fields/video-field/video-field';
import { useConfigStore } from '@/stores/config-store';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { renderWithFreshCache } from '@/test-utils/render';
import { FilePicker } from './file-picker';
import type { PickedFile } from './selection';

// jsdom here, not happy-dom: the frame stays empty quietly instead of a refused page load.
beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
});
afterEach(cleanup);

/** antd spaces two Chinese characters on a button ("选 择"). */
const spaced = (text: string) => new RegExp([...text].join('\\s*'));

function setup(props: { external: boolean }) {
  const picked: PickedFile[][] = [];
  let closed = 0;
  renderWithFreshCache(
    <FilePicker
      url="http://127.0.0.1:9/unused"
      category="image"
      open
      onClose={() => closed++}
      onConfirm={(items) => picked.push(items)}
      {...props}
    />,
  );
  return { picked, closedCount: () => closed };
}

describe('FilePicker with an external selector (SPEC 2.4)', () => {
  it('takes the items an external selector posts back', async () => {
    window.__selectorDialogServer = 'http://selector.test/pick/';
    try {
      const { picked, closedCount } = setup({ external: true });
      const frame = await waitFor(() => {
        const found = document.body.querySelector('iframe');
        if (!(found instanceof HTMLIFrameElement)) throw new Error('no frame');
        return found;
      });
      expect(frame.getAttribute('src')).toBe('http://selector.test/pick/image');
      // The frame's window, but speaking from another origin (it navigated away): ignored.
      window.dispatchEvent(
        new MessageEvent('message', {
          data: [{ path: '/x/evil.png' }],
          origin: 'http://evil.test',
          source: frame.contentWindow,
        }),
      );
      // The right origin from another window (a frame inside the selector): ignored too.
      window.dispatchEvent(
        new MessageEvent('message', {
          data: [{ path: '/x/nested.png' }],
          origin: 'http://selector.test',
          source: window,
        }),
      );
      window.dispatchEvent(
        new MessageEvent('message', {
          data: [{ path: '/x/a.png' }],
          origin: 'http://selector.test',
          source: frame.contentWindow,
        }),
      );
      await waitFor(() => expect(picked).toHaveLength(1));
      expect(closedCount()).toBe(1);
      expect(picked[0]).toEqual([
        {
          category: 'image',
          filename: 'a.png',
          path: '/x/a.png',
          fullPath: '/x/a.png',
          type: 'png',
        },
      ]);
      expect(closedCount()).toBe(1);
    } finally {
      delete window.__selectorDialogServer;
    }
  });

  it('the site setting turns it on for every field, at the address it names', async () => {
    const before = useConfigStore.getState().config;
    const user = userEvent.setup({ delay: null });
    useConfigStore.getState().setConfig({ ...before, selectorMode: 'external' });
    try {
      renderWithFreshCache(<ImageField />);
      await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectImage')) }));
      expect(await screen.findByText(tFiles('files.selectorNotConfigured'))).toBeInTheDocument();
      expect(document.body.querySelector('iframe')).toBeNull();
      cleanup();

      useConfigStore.getState().setConfig({
        ...before,
        selectorMode: 'external',
        selectorServer: 'https://media.example.com/selector/',
      });
      renderWithFreshCache(<VideoField />);
      await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectVideo')) }));
      const frame = await waitFor(() => {
        const found = document.body.querySelector('iframe');
        if (!found) throw new Error('no frame');
        return found;
      });
      expect(frame.getAttribute('src')).toBe('https://media.example.com/selector/video');
    } finally {
      useConfigStore.getState().setConfig(before);
    }
  });

  it('says a reload is needed when the page was loaded before the address was allowed', async () => {
    window.__selectorDialogServer = 'http://selector.test/pick';
    const violation = (blockedURI: string, effectiveDirective = 'frame-src') =>
      document.dispatchEvent(
        Object.assign(new Event('securitypolicyviolation'), { blockedURI, effectiveDirective }),
      );
    try {
      setup({ external: true });
      await waitFor(() => expect(document.body.querySelector('iframe')).not.toBeNull());
      // Another origin's refusal, or another directive's, is not this frame's.
      violation('http://elsewhere.test/x');
      violation('http://selector.test/pick/image', 'img-src');
      expect(document.body.querySelector('iframe')).not.toBeNull();

      violation('http://selector.test/pick/image');
      expect(
        await screen.findByText(
          tFiles('files.selectorBlocked', { origin: 'http://selector.test' }),
        ),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: tFiles('files.selectorReload') }),
      ).toBeInTheDocument();
      expect(document.body.querySelector('iframe')).toBeNull();
    } finally {
      delete window.__selectorDialogServer;
    }
  });
});
