import { create } from 'zustand';
import { Code } from '@atrium/shared/codes';
import { useApiStore } from '@/stores/api-store';

/**
 * Tells every captcha on the page to draw a new image. A captcha is used up by any check, so
 * forms call `refreshCaptchas` after each answer that checked one; a "wrong captcha" answer
 * (code 1002) does it by itself while a captcha is on screen.
 */
export const useCaptchaSignal = create<{ generation: number }>(() => ({ generation: 0 }));

function refreshCaptchas(): void {
  useCaptchaSignal.setState((s) => ({ generation: s.generation + 1 }));
}

let holders = 0;
let removeProcessor: (() => void) | undefined;

/** Held by each mounted captcha; the 1002 handler lives while at least one is mounted. */
export function holdWrongCaptchaRefresh(): () => void {
  holders += 1;
  removeProcessor ??= useApiStore
    .getState()
    .addCodeProcessor({ code: Code.CaptchaWrong, callback: refreshCaptchas });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) {
      removeProcessor?.();
      removeProcessor = undefined;
    }
  };
}
