import type { CSSProperties } from 'react';
import { theme } from 'antd';

/**
 * The theme's colours as CSS variables on the own root of the picker and the upload button, so their stylesheets follows the
 * light/dark theme without depending on where antd declares its variables.
 */
export function useThemeVars(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--fp-primary': token.colorPrimary,
    '--fp-primary-hover': token.colorPrimaryHover,
    '--fp-primary-bg': token.colorPrimaryBg,
    '--fp-border': token.colorBorderSecondary,
    '--fp-fill': token.colorFillQuaternary,
    '--fp-bg': token.colorBgContainer,
    '--fp-text': token.colorText,
    '--fp-text-secondary': token.colorTextSecondary,
    '--fp-error': token.colorError,
    '--fp-success': token.colorSuccess,
    '--fp-warning': token.colorWarning,
    '--fp-radius': `${token.borderRadiusLG}px`,
  } as CSSProperties;
}
