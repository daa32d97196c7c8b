import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';

export interface PageHeaderProps {
  title: string;
  subtitle?: string;
  /** Actions on the right: search boxes, "new" buttons. */
  extra?: ReactNode;
}

/** The title row every management page starts with. */
export function PageHeader({ title, subtitle, extra }: PageHeaderProps) {
  return (
    <Flex align="flex-end" justify="space-between" gap={16} wrap>
      <div style={{ minWidth: 0 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
      </div>
      {extra && (
        <Flex gap={8} wrap align="center">
          {extra}
        </Flex>
      )}
    </Flex>
  );
}
