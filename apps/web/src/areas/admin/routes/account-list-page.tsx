import { useState, type ReactNode } from 'react';
import { Button, Card, Flex, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { PageHeader } from './page-header';

/** A list of accounts' page, size and search words: a new search starts from page 1. */
export function useAccountQuery() {
  const [query, setQuery] = useState({ page: 1, pageSize: 20, keyword: '' });
  return {
    query,
    search: (keyword: string) => setQuery((q) => ({ ...q, page: 1, keyword: keyword.trim() })),
    turn: (page: number, pageSize: number) => setQuery((q) => ({ ...q, page, pageSize })),
  };
}

export interface AccountListPageProps {
  title: string;
  subtitle: string;
  searchPlaceholder: string;
  newLabel: string;
  onSearch: (keyword: string) => void;
  onNew: () => void;
  /** The accounts' table. */
  table: ReactNode;
  /** The dialogs the table opens. */
  children: ReactNode;
}

/** The page of a list of accounts (admins, members): search and New above, the table below. */
export function AccountListPage(props: AccountListPageProps) {
  return (
    <Flex vertical gap={16}>
      <PageHeader
        title={props.title}
        subtitle={props.subtitle}
        extra={
          <>
            <Input.Search
              allowClear
              placeholder={props.searchPlaceholder}
              style={{ width: 280 }}
              onSearch={props.onSearch}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={props.onNew}>
              {props.newLabel}
            </Button>
          </>
        }
      />
      <Card styles={{ body: { padding: 0 } }}>{props.table}</Card>
      {props.children}
    </Flex>
  );
}
