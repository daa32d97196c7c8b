import { useEffect, useRef, useState } from 'react';
import { Tooltip } from 'antd';
import { request, runningArea } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { useCaptchaT } from './captcha-i18n';
import { holdWrongCaptchaRefresh, useCaptchaSignal } from './captcha-signal';

/** Shown while a new image is on its way (SPEC 4.7). */
export const captchaPlaceholder = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="4" fill="#eef1f6"/><g fill="#b4bccb"><circle cx="48" cy="20" r="3"/><circle cx="60" cy="20" r="3"/><circle cx="72" cy="20" r="3"/></g></svg>',
)}`;

async function fetchCaptchaImage(): Promise<string | undefined> {
  const result = await request(runningArea(), 'captcha/image', {}, { successToast: false });
  return result.code === 0 ? result.data.image : undefined;
}

export interface CaptchaImageProps {
  /** Image height in px (SPEC 2.6: 40). */
  height?: number;
  /** Changing it draws a new image, like a click. */
  refreshKey?: number;
}

/**
 * The image captcha (SPEC 2.6, 4.7): on display and on every click it shows a placeholder, then
 * asks this area's `captcha/image` for a new image. Requests go one after another, so the image
 * shown is always the one the server checks against.
 */
export function CaptchaImage({ height = 40, refreshKey = 0 }: CaptchaImageProps) {
  const { t } = useT();
  const tc = useCaptchaT();
  const [clicks, setClicks] = useState(0);
  const generation = useCaptchaSignal((s) => s.generation);
  const requestKey = `${refreshKey}:${clicks}:${generation}`;
  const [loaded, setLoaded] = useState<{ key: string; image: string }>();
  const queue = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => holdWrongCaptchaRefresh(), []);

  useEffect(() => {
    let current = true;
    queue.current = queue.current.then(async () => {
      if (!current) return;
      const image = await fetchCaptchaImage();
      if (current && image) setLoaded({ key: requestKey, image });
    });
    return () => {
      current = false;
    };
  }, [requestKey]);

  const src = loaded?.key === requestKey ? loaded.image : captchaPlaceholder;
  return (
    <Tooltip title={t('captcha.refresh')}>
      <img
        src={src}
        // Its name says what it is and what a click does; the tooltip keeps SPEC's short words.
        alt={tc('captcha.imageAlt')}
        role="button"
        tabIndex={0}
        data-loaded={src !== captchaPlaceholder}
        onClick={() => setClicks((c) => c + 1)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            setClicks((c) => c + 1);
          }
        }}
        style={{ height, width: height * 3, cursor: 'pointer', borderRadius: 6, flex: 'none' }}
      />
    </Tooltip>
  );
}
