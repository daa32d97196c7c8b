import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { hasRule } from '@atrium/shared/rules';
import { usePermissionStore } from '@/stores/permission-store';
import { PageSpinner } from './page-spinner';

/** An ordered (permission rule, route) pair; a list of rules passes when any matches. */
export type RedirectPair = readonly [rule: string | readonly string[], route: string];

/** The first route whose rule the rules hold, if any. */
export function firstPermittedRoute(
  pairs: readonly RedirectPair[],
  rules: readonly string[],
): string | undefined {
  return pairs.find(([rule]) => hasRule(rules, rule))?.[1];
}

export interface PermissionRedirectProps {
  pairs: readonly RedirectPair[];
  /** Shown when the user holds none of the rules. */
  fallback: ReactNode;
}

/**
 * The route redirect helper (SPEC 2.6): replaces the current route with the first route whose
 * rule the user holds, once the rules are known.
 */
export function PermissionRedirect({ pairs, fallback }: PermissionRedirectProps) {
  const initialised = usePermissionStore((s) => s.initialised);
  const rules = usePermissionStore((s) => s.rules);
  if (!initialised) return <PageSpinner />;
  const route = firstPermittedRoute(pairs, rules);
  return route === undefined ? <>{fallback}</> : <Navigate to={route} replace />;
}
