import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n';

const zhCN = {
  'table.showDetail': '查看详情',
  'table.hideDetail': '收起详情',
};
type TableKey = keyof typeof zhCN;

const en: Record<TableKey, string> = {
  'table.showDetail': 'Show details',
  'table.hideDetail': 'Hide details',
};

// The card rows' own words (a row's expandable detail on a narrow window).
i18n.addResourceBundle('zh-CN', 'translation', zhCN, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);

export function useTableT(): (key: TableKey) => string {
  const { t } = useTranslation();
  return (key) => t(key);
}
