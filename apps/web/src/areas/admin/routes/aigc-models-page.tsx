import { useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { ProvidersPanel } from '@/features/ai/components/providers-panel';
import { useAiT } from '@/features/ai/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/aigc/model`: AI providers and their models. */
export function AigcModelsPage() {
  const t = useAiT();
  const [creating, setCreating] = useState(false);
  return (
    <RuleGate rule="aigc/model" refusal={t('ai.noPermission')}>
      <PageHeader
        title={t('ai.title')}
        subtitle={t('ai.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('ai.newProvider')}
          </Button>
        }
      />
      <div style={{ height: 16 }} />
      <ProvidersPanel creating={creating} onCreated={() => setCreating(false)} />
    </RuleGate>
  );
}
