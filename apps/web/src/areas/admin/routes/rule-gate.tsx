import type { ReactNode } from 'react';
import { Result } from 'antd';
import { hasRule } from '@atrium/shared/rules';
import { PageSpinner } from '@/components/page-spinner';
import { useT } from '@/lib/i18n';
import { usePermissionStore } from '@/stores/permission-store';

export interface RuleGateProps {
  /** The rule the page's calls need. */
  rule: string;
  /** Says what the admin may not do here. */
  refusal: string;
  children: ReactNode;
}

/**
 * Renders a management page only for admins holding its rule, so typing its address without the
 * rule shows a plain refusal instead of a page whose every call fails.
 */
export function RuleGate({ rule, refusal, children }: RuleGateProps) {
  const { t } = useT();
  const initialised = usePermissionStore((s) => s.initialised);
  const allowed = usePermissionStore((s) => hasRule(s.rules, rule));
  if (!initialised) return <PageSpinner />;
  if (!allowed) {
    return <Result status="403" title={t('noPermission.title')} subTitle={refusal} />;
  }
  return <>{children}</>;
}
