import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { useEscapeLayer } from './escape-layer';

afterEach(cleanup);

const esc = (target: EventTarget = document.body, init: KeyboardEventInit = {}) => {
  const event = new KeyboardEvent('keydown', {
    key: 'Escape',
    bubbles: true,
    cancelable: true,
    ...init,
  });
  target.dispatchEvent(event);
  return event;
};

describe('useEscapeLayer', () => {
  it('closes only the topmost open layer, whatever has focus, and hides Esc from the rest', () => {
    const picker = vi.fn();
    const sub = vi.fn();
    const beneath = vi.fn();
    document.addEventListener('keydown', beneath);
    const first = renderHook(({ open }) => useEscapeLayer(open, picker), {
      initialProps: { open: true },
    });
    const second = renderHook(({ open }) => useEscapeLayer(open, sub), {
      initialProps: { open: true },
    });
    expect(esc().defaultPrevented).toBe(true);
    expect([sub.mock.calls.length, picker.mock.calls.length]).toEqual([1, 0]);
    second.rerender({ open: false });
    esc();
    expect([sub.mock.calls.length, picker.mock.calls.length]).toEqual([1, 1]);
    expect(beneath).not.toHaveBeenCalled();
    first.unmount();
    esc();
    expect(beneath).toHaveBeenCalledTimes(1);
    expect(picker).toHaveBeenCalledTimes(1);
    document.removeEventListener('keydown', beneath);
  });

  it('leaves Esc to an open list, a confirm on top, or text being composed', () => {
    const close = vi.fn();
    renderHook(() => useEscapeLayer(true, close));
    const list = document.createElement('input');
    list.setAttribute('aria-expanded', 'true');
    const confirm = document.createElement('div');
    confirm.className = 'ant-modal-confirm';
    const button = confirm.appendChild(document.createElement('button'));
    document.body.append(list, confirm);
    esc(list);
    esc(button);
    esc(document.body, { isComposing: true });
    expect(close).not.toHaveBeenCalled();
    esc();
    expect(close).toHaveBeenCalledTimes(1);
    list.remove();
    confirm.remove();
  });
});
