import { Tag } from 'antd';
import { effectiveContextLength } from '@atrium/shared/contract/chat-limits';
import { useAiT } from '../i18n';

/**
 * A model's context window as it is used: a model saved with 0 has the default (8192 tokens,
 * `effectiveContextLength`), shown as that number marked "default" rather than as "0".
 */
export function ContextLength({ value }: { value: number }) {
  const t = useAiT();
  if (value > 0) return <span>{value}</span>;
  return (
    <span>
      {effectiveContextLength(value)}
      <Tag variant="filled" style={{ marginInlineStart: 6 }}>
        {t('ai.contextIsDefault')}
      </Tag>
    </span>
  );
}
