import { BookOutlined, PlusOutlined } from '@ant-design/icons';
import type { ApiKeyView } from '@vw/contract';
import { PUBLIC_API_DOCS_PATH } from '@vw/contract/constants/apikeys.ts';
import { App, Button, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { formatCredits, formatDate, formatDateTime } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { CreateKeyDialog, RenameDialog, SecretOnce } from './KeyDialogs.tsx';
import { KeyUsage } from './KeyUsage.tsx';
import { QuickStart } from './QuickStart.tsx';
import { useLoadedList } from './useLoadedList.ts';
import { Webhooks } from './Webhooks.tsx';
import './api-keys.css';

const t = zhCN.apiKeys;
const pickKeys = (d: { keys: ApiKeyView[] }) => d.keys;
const STATUS_COLORS: Record<string, string> = { active: 'green', revoked: 'default', expired: 'orange' };

/** The key table's columns: name, masked key, status, credits, requests, dates and the row's actions. */
function keyColumns({
  onUsage,
  onRename,
  onRevoke,
}: {
  onUsage: (keyId: string) => void;
  onRename: (key: ApiKeyView) => void;
  onRevoke: (key: ApiKeyView) => void;
}): TableColumnsType<ApiKeyView> {
  return [
    {
      title: t.colName,
      dataIndex: 'name',
      render: (n: string) => (
        <strong className="vw-apikeys-name" data-testid="key-name">
          {n}
        </strong>
      ),
    },
    {
      title: t.colKey,
      dataIndex: 'masked_key',
      width: 150,
      render: (m: string) => <code data-testid="key-masked">{m}</code>,
    },
    {
      title: t.colStatus,
      dataIndex: 'status',
      width: 90,
      render: (s: string) => (
        <Tag color={STATUS_COLORS[s]} data-testid="key-status">
          {t.status[s]}
        </Tag>
      ),
    },
    {
      title: t.colCredits,
      width: 130,
      render: (_, k) => (
        <span data-testid="key-credits">
          {formatCredits(k.credits_used)} /{' '}
          {k.credit_limit == null ? t.noLimit : formatCredits(k.credit_limit)}
        </span>
      ),
    },
    {
      title: t.colRequests,
      dataIndex: 'requests',
      width: 80,
      render: (n: number) => <span data-testid="key-requests">{n}</span>,
    },
    { title: t.colCreated, dataIndex: 'created_time', width: 150, render: (s: number) => formatDateTime(s) },
    {
      title: t.colLastUsed,
      dataIndex: 'last_used_time',
      width: 150,
      render: (s: number | null) =>
        s ? formatDateTime(s) : <span className="vw-apikeys-muted">{t.never}</span>,
    },
    {
      title: t.colExpires,
      dataIndex: 'expires_time',
      width: 110,
      render: (s: number | null) =>
        s ? formatDate(s) : <span className="vw-apikeys-muted">{t.noExpiry}</span>,
    },
    {
      title: t.colActions,
      width: 190,
      render: (_, k) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onUsage(k.key_id)} data-testid="key-usage-button">
            {t.usage}
          </Button>
          <Button type="link" size="small" onClick={() => onRename(k)} data-testid="key-rename">
            {t.rename}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            disabled={k.status === 'revoked'}
            onClick={() => onRevoke(k)}
            data-testid="key-revoke"
          >
            {t.revoke}
          </Button>
        </Space>
      ),
    },
  ];
}

/** Route /api-keys: the user's API keys, their usage, a quick start, the docs link and webhooks. */
export function Component() {
  const { message, modal } = App.useApp();
  const { list: keys, loading, loads, reload: load } = useLoadedList(api.apiKeyList, pickKeys);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  /** The key created in this visit: filled into the quick start (it is never fetched again). */
  const [freshKey, setFreshKey] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<ApiKeyView | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const shown = keys.find((k) => k.key_id === selected) ?? keys.find((k) => k.status === 'active') ?? keys[0];

  const revoke = (k: ApiKeyView) =>
    modal.confirm({
      title: t.revokeTitle,
      content: t.revokeBody,
      okText: t.revokeOk,
      okButtonProps: { danger: true, 'data-testid': 'revoke-confirm' } as never,
      cancelText: t.cancel,
      onOk: async () => {
        await request(api.apiKeyRevoke, { body: { key_id: k.key_id } });
        message.success(t.revoked);
        await load();
      },
    });

  const columns = keyColumns({ onUsage: setSelected, onRename: setRenaming, onRevoke: revoke });

  return (
    <div className="vw-page vw-apikeys" data-testid="api-keys-page">
      <header className="vw-page-header vw-apikeys-header">
        <div>
          <h1>{t.title}</h1>
          <p>{t.subtitle}</p>
        </div>
        <Space>
          <Button
            icon={<BookOutlined />}
            href={PUBLIC_API_DOCS_PATH}
            target="_blank"
            data-testid="api-docs-link"
          >
            {t.docs}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="create-key"
          >
            {t.create}
          </Button>
        </Space>
      </header>

      <section className="vw-card">
        <div className="vw-card-head">
          <h2>{t.keys}</h2>
        </div>
        <Table
          rowKey="key_id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={keys}
          pagination={false}
          locale={{ emptyText: t.empty }}
          rowClassName={(k) => (k.key_id === shown?.key_id ? 'vw-apikeys-row-selected' : '')}
          onRow={(k) => ({ onClick: () => setSelected(k.key_id) })}
          data-testid="key-table"
        />
        {shown && <KeyUsage keyView={shown} version={loads} />}
      </section>

      <QuickStart apiKey={freshKey} />
      <Webhooks />

      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key, s) => {
          setCreating(false);
          setSecret(s);
          setFreshKey(s);
          setSelected(key.key_id);
          void load();
        }}
      />
      <SecretOnce
        title={t.createdTitle}
        warning={t.createdWarning}
        secret={secret}
        onClose={() => setSecret(null)}
      />
      <RenameDialog
        keyView={renaming}
        onClose={() => setRenaming(null)}
        onDone={() => {
          setRenaming(null);
          void load();
        }}
      />
    </div>
  );
}
