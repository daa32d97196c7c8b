import type { CSSProperties, ReactNode } from 'react';
import { assetUrl } from '@/lib/urls';

export interface ImageCoverProps {
  /** The image address shown as background (SPEC 3.11); empty shows only the background colour. */
  src?: string;
  /** "width:height"; height = element width × height / width. Unset or invalid: square. */
  ratio?: string;
  /** Read out by screen readers; omit for a purely decorative cover. */
  alt?: string;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

/** Height over width of a "w:h" ratio; 1 when it is missing or not two positive numbers. */
export function ratioOf(ratio: string | undefined): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(ratio ?? '');
  if (!match) return 1;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? height / width : 1;
}

/** A CSS url() value; JSON string escaping is also valid CSS string escaping. */
function cssUrl(src: string): string {
  return `url(${JSON.stringify(src)})`;
}

/** An image as a background cover at a fixed aspect ratio (SPEC 2.6, 3.11). */
export function ImageCover({ src = '', ratio, alt, className, style, children }: ImageCoverProps) {
  return (
    <div
      className={className}
      role={alt ? 'img' : undefined}
      aria-label={alt}
      style={{
        position: 'relative',
        width: '100%',
        paddingTop: `${(ratioOf(ratio) * 100).toFixed(4)}%`,
        backgroundColor: 'var(--atrium-cover-bg, rgba(127, 127, 127, 0.12))',
        backgroundImage: src ? cssUrl(assetUrl(src)) : undefined,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
        backgroundRepeat: 'no-repeat',
        overflow: 'hidden',
        ...style,
      }}
    >
      {children && <div style={{ position: 'absolute', inset: 0 }}>{children}</div>}
    </div>
  );
}
