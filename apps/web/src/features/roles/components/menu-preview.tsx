import { memo } from 'react';
import { Flex, Tag, Typography, theme } from 'antd';
import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { markMenu, type MenuItem, type ShownMenuItem } from '@atrium/shared/rules';
import { useT } from '@/lib/i18n';
import { useRolesT } from '../i18n';

function pages(items: readonly ShownMenuItem[]): ShownMenuItem[] {
  return items.flatMap((item) => (item.children.length > 0 ? pages(item.children) : [item]));
}

export interface MenuPreviewProps {
  menu: readonly MenuItem[];
  rules: readonly string[];
}

/** Which menu items an admin holding `rules` sees, with the same matcher the panel uses. */
export const MenuPreview = memo(function MenuPreview({ menu, rules }: MenuPreviewProps) {
  const { tText } = useT();
  const t = useRolesT();
  const { token } = theme.useToken();
  const marked = markMenu(menu, rules);
  const all = pages(marked);

  const rows = (items: readonly ShownMenuItem[], depth: number) =>
    items.map((item) => (
      <div key={item.url}>
        <Flex
          align="center"
          gap={8}
          data-testid={`preview-${item.url}`}
          data-shown={item.show}
          style={{ paddingBlock: 4, paddingInlineStart: depth * 20 }}
        >
          {item.show ? (
            <CheckCircleFilled style={{ color: token.colorSuccess }} />
          ) : (
            <MinusCircleOutlined style={{ color: token.colorTextQuaternary }} />
          )}
          <Typography.Text type={item.show ? undefined : 'secondary'} delete={!item.show}>
            {tText(item.title)}
          </Typography.Text>
          {!item.show && (
            <Tag variant="filled" style={{ marginInlineStart: 'auto' }}>
              {t('roles.hidden')}
            </Tag>
          )}
        </Flex>
        {rows(item.children, depth + 1)}
      </div>
    ));

  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        {t('roles.previewCount', { shown: all.filter((p) => p.show).length, total: all.length })}
      </Typography.Text>
      <div>{rows(marked, 0)}</div>
    </Flex>
  );
});
