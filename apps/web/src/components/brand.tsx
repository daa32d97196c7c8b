import { theme } from 'antd';
import { assetUrl } from '@/lib/urls';
import { useConfigStore } from '@/stores/config-store';
import { brandColor } from './theme-tokens';

/** The logo the site settings name, or '' for the built-in mark. */
export function useSiteLogo(): string {
  return useConfigStore((s) => (typeof s.config.logo === 'string' ? s.config.logo : ''));
}

/** The site's logo when one is set, else Atrium's mark: headers and sign-in pages alike. */
export function SiteMark({ size = 32 }: { size?: number }) {
  const logo = useSiteLogo();
  return logo ? (
    <img
      src={assetUrl(logo)}
      alt=""
      style={{ height: size, maxWidth: size * 4, objectFit: 'contain', flex: 'none' }}
    />
  ) : (
    <BrandMark size={size} />
  );
}

export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="atrium-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={brandColor} />
          <stop offset="1" stopColor="#06b6d4" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#atrium-mark)" />
      <path
        d="M9 24V14.5a7 7 0 0 1 14 0V24"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <path d="M13 24v-7h6v7" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinejoin="round" />
    </svg>
  );
}

export interface BrandProps {
  name: string;
  /** Shown after the name in a lighter weight, e.g. "管理后台". */
  suffix?: string;
  showMark?: boolean;

  href?: string;
}

export function Brand({ name, suffix, showMark = true, href = '#/' }: BrandProps) {
  const { token } = theme.useToken();
  return (
    <a
      href={href}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 10,
        minWidth: 0,
        color: token.colorText,
        lineHeight: 1.3,
      }}
    >
      {showMark && <SiteMark />}
      <span
        style={{
          fontSize: 17,
          fontWeight: 600,
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
        }}
      >
        {name}
        {suffix && (
          <span
            style={{
              fontWeight: 400,
              marginLeft: 8,
              fontSize: 14,
              color: token.colorTextSecondary,
            }}
          >
            {suffix}
          </span>
        )}
      </span>
    </a>
  );
}
