import { useEffect, useState } from 'react';
import { ImageCover } from '@/components/image-cover/image-cover';
import { useReducedMotion } from '@/lib/use-media-query';
import { useConfigStore } from '@/stores/config-store';
import { useBannerT } from '../banner-i18n';
import { siteLook } from '../site-look';
import './site-banner.css';

const slideMs = 6000;

/** A plain chevron: the icon library's would add to the member home's first load. */
function Chevron({ left }: { left?: boolean }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        d={left ? 'M10.5 2.5 5 8l5.5 5.5' : 'M5.5 2.5 11 8l-5.5 5.5'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The home banners of the site settings, in their saved order, one at a time. */
export function SiteBanner() {
  const t = useBannerT();
  const banners = useConfigStore((s) => siteLook(s.config).banners.join('\n'));
  const list = banners ? banners.split('\n') : [];
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = list.length;
  const reducedMotion = useReducedMotion();
  const current = count > 0 ? index % count : 0;

  useEffect(() => {
    if (count < 2 || paused || reducedMotion) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), slideMs);
    return () => window.clearInterval(timer);
  }, [count, paused, reducedMotion]);

  if (count === 0) return null;
  const go = (step: number) => setIndex((current + step + count) % count);

  return (
    <section
      className="atrium-banner"
      aria-roledescription="carousel"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="atrium-banner-track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {list.map((src, i) => (
          <div
            key={`${i}:${src}`}
            className="atrium-banner-slide"
            aria-hidden={i !== current}
            aria-roledescription="slide"
          >
            <ImageCover src={src} ratio="16:5" alt={t('siteBanner.label', { n: i + 1, count })} />
          </div>
        ))}
      </div>
      {count > 1 ? (
        <>
          <button
            type="button"
            className="atrium-banner-arrow is-prev"
            aria-label={t('siteBanner.prev')}
            onClick={() => go(-1)}
          >
            <Chevron left />
          </button>
          <button
            type="button"
            className="atrium-banner-arrow is-next"
            aria-label={t('siteBanner.next')}
            onClick={() => go(1)}
          >
            <Chevron />
          </button>
          <div className="atrium-banner-dots">
            {list.map((src, i) => (
              <button
                type="button"
                key={`${i}:${src}`}
                className={i === current ? 'is-current' : undefined}
                aria-label={t('siteBanner.label', { n: i + 1, count })}
                aria-current={i === current}
                onClick={() => setIndex(i)}
              />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}
