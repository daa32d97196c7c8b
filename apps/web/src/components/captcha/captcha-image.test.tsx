import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ServerResponse } from 'node:http';
import { Code } from '@atrium/shared/codes';
import { request } from '@/lib/api';
import { setLanguage } from '@/lib/i18n';
import { useApiStore, notLoggedInProcessor } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { CaptchaImage, captchaPlaceholder } from './captcha-image';

let server: LocalServer;
/** Answers held back until the test lets them go, so the placeholder can be seen. */
let held: ServerResponse[] = [];
let drawn = 0;
let holding = false;

const image = (n: number) => `data:image/svg+xml;base64,${btoa(`<svg id="${n}"/>`)}`;
const answerNext = () => {
  const res = held.shift();
  if (res) sendJson(res, { code: 0, msg: '', data: { image: image(++drawn) } });
};

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    if (req.url === '/api/captcha/image') {
      if (holding) held.push(res);
      else sendJson(res, { code: 0, msg: '', data: { image: image(++drawn) } });
      return;
    }
    sendJson(res, { code: Code.CaptchaWrong, msg: 'Wrong captcha', data: null });
  });
});
afterAll(() => server.close());

beforeEach(() => {
  installResizeObserver();
  setLanguage('en');
  server.requests.length = 0;
  held = [];
  drawn = 0;
  holding = false;
  useApiStore.setState({ codeProcessors: [notLoggedInProcessor] });
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
});
afterEach(() => cleanup());

const img = () => screen.getByRole('button', { name: 'Captcha image, click to refresh' });
const captchaCalls = () => server.requests.filter((r) => r.url === '/api/captcha/image').length;

describe('captcha image', () => {
  it('shows a placeholder, then the image from captcha/image, 40 px high', async () => {
    holding = true;
    renderWithProviders(<CaptchaImage />);
    expect(img()).toHaveAttribute('src', captchaPlaceholder);
    expect(img()).toHaveStyle({ height: '40px' });
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => answerNext());
    await waitFor(() => expect(img()).toHaveAttribute('src', image(1)));
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/api/captcha/image' });
  });

  it('says "Click to refresh" and draws a new image on every click, placeholder first', async () => {
    renderWithProviders(<CaptchaImage height={32} />);
    await waitFor(() => expect(img()).toHaveAttribute('src', image(1)));
    fireEvent.mouseEnter(img());
    await waitFor(() =>
      expect(document.querySelector('.ant-tooltip')).toHaveTextContent('Click to refresh'),
    );
    holding = true;
    fireEvent.click(img());
    expect(img()).toHaveAttribute('src', captchaPlaceholder);
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => answerNext());
    await waitFor(() => expect(img()).toHaveAttribute('src', image(2)));
    expect(img()).toHaveStyle({ height: '32px' });
  });

  it('is a button named for what it is and what it does, refreshed by Enter or Space', async () => {
    renderWithProviders(<CaptchaImage />);
    await waitFor(() => expect(img()).toHaveAttribute('src', image(1)));
    expect(img()).toHaveAttribute('tabindex', '0');
    img().focus();
    fireEvent.keyDown(img(), { key: 'Enter' });
    await waitFor(() => expect(img()).toHaveAttribute('src', image(2)));
    fireEvent.keyDown(img(), { key: ' ' });
    await waitFor(() => expect(img()).toHaveAttribute('src', image(3)));
    expect(captchaCalls()).toBe(3);
    act(() => setLanguage('zh-CN'));
    expect(screen.getByRole('button', { name: '图形验证码，点击刷新' })).toHaveFocus();
  });

  it('asks for images one at a time, so the one shown is the one the server keeps', async () => {
    holding = true;
    renderWithProviders(<CaptchaImage />);
    await waitFor(() => expect(held).toHaveLength(1));
    fireEvent.click(img());
    fireEvent.click(img());
    await new Promise((r) => setTimeout(r, 50));
    expect(captchaCalls()).toBe(1);
    act(() => answerNext());
    // The first two answers belong to superseded draws; only the last request is made and shown.
    await waitFor(() => expect(held).toHaveLength(1));
    expect(captchaCalls()).toBe(2);
    act(() => answerNext());
    await waitFor(() => expect(img()).toHaveAttribute('src', image(2)));
  });

  it('refreshes itself when an answer says the captcha was wrong', async () => {
    renderWithProviders(<CaptchaImage />);
    await waitFor(() => expect(img()).toHaveAttribute('src', image(1)));
    await act(() => request('member', 'verify/send', { target: 'a@b.co', captcha: 'XXXX' }));
    await waitFor(() => expect(img()).toHaveAttribute('src', image(2)));
  });

  it('leaves code 1002 alone once no captcha is on screen', async () => {
    const view = renderWithProviders(<CaptchaImage />);
    await waitFor(() => expect(img()).toHaveAttribute('src', image(1)));
    view.unmount();
    expect(useApiStore.getState().codeProcessors.map((p) => p.code)).toEqual([Code.NotLoggedIn]);
  });
});
