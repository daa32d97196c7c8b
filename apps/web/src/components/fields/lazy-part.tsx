import {
  Component,
  lazy,
  useCallback,
  useState,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
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

/**
 * A part's boundary in its field: a failed download stays inside the field, whose Retry fetches
 * the part again (`reload`, from the part's hook) and draws it anew.
 */
export function PartBoundary({ reload, children }: { reload: () => void; children: ReactNode }) {
  return (
    <LoadBoundary
      fallback={(retry) => (
        <LoadFailed
          onRetry={() => {
            reload();
            retry();
          }}
        />
      )}
    >
      {children}
    </LoadBoundary>
  );
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

/**
 * An editor's code loaded on demand, once for every field that shows it: `lazyPart(load)` at
 * module level gives the hook the fields call. A lazy component made per field suspended at every
 * mount, its code in hand or not, so a form opened again showed the placeholder for a moment and
 * what followed it moved (16 px under the pointer, for the code editor in the room editor). After
 * a failed download, the hook's `reload` makes a fresh one, for the fields mounted later too.
 */
export function lazyPart<P>(load: () => Promise<{ default: (props: P) => ReactNode }>) {
  let shared = lazy(load);
  function useLazyPart(): [LazyExoticComponent<(props: P) => ReactNode>, () => void] {
    const [Part, setPart] = useState(() => shared);
    const reload = useCallback(() => {
      shared = lazy(load);
      setPart(() => shared);
    }, []);
    return [Part, reload];
  }
  /**
   * Fields mounted from now on start with the code not yet in hand (the placeholder first), as
   * on a page's first opening. The web's unit tests share one module graph (isolate: false): a
   * test of what happens before the code arrives calls it, whatever file drew the editor before.
   */
  useLazyPart.forget = () => {
    shared = lazy(load);
  };
  return useLazyPart;
}
