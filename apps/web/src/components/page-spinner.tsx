import { Flex, Spin } from 'antd';

/** Shown while a route's code or the site config is on its way. */
export function PageSpinner({ fullHeight = false }: { fullHeight?: boolean }) {
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullHeight ? '100vh' : 320 }}>
      <Spin size="large" />
    </Flex>
  );
}
