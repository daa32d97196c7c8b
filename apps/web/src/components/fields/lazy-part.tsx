import { Component, type ReactNode } from 'react';
import { Button } from 'antd';
import { useFieldsT } from './i18n';

interface BoundaryProps {
  fallback: (retry: () => void) => ReactNode;
  children: ReactNode;
}

/** Keeps a failed download of an editor's code (offline, new deployment) inside the field. */
export class LoadBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed
      ? this.props.fallback(() => this.setState({ failed: false }))
      : this.props.children;
  }
}

export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const t = useFieldsT();
  return (
    <div className="atrium-field-hint" role="alert" style={{ padding: 12 }}>
      {t('fields.editorFailed')}{' '}
      <Button size="small" onClick={onRetry}>
        {t('fields.retry')}
      </Button>
    </div>
  );
}
