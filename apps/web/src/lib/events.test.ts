import { describe, expect, it, vi } from 'vitest';
import { emit, on } from './events';

describe('event bus', () => {
  it('delivers typed events to subscribers and as window CustomEvents', () => {
    const handler = vi.fn();
    const windowHandler = vi.fn();
    const off = on('EventAppMounted', handler);
    window.addEventListener('EventAppMounted', windowHandler);
    emit('EventAppMounted', { area: 'admin' });
    expect(handler).toHaveBeenCalledWith({ area: 'admin' });
    const event = windowHandler.mock.calls[0]?.[0];
    expect(event).toBeInstanceOf(CustomEvent);
    expect((event as CustomEvent).detail).toEqual({ area: 'admin' });
    off();
    emit('EventAppMounted', { area: 'member' });
    expect(handler).toHaveBeenCalledTimes(1);
    window.removeEventListener('EventAppMounted', windowHandler);
  });

  it('keeps events apart by name', () => {
    const handler = vi.fn();
    const off = on('UpdateApp', handler);
    emit('EventAppMounted', { area: 'member' });
    expect(handler).not.toHaveBeenCalled();
    off();
  });
});
