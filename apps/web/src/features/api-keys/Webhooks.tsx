import { DeleteOutlined, HistoryOutlined, SendOutlined } from '@ant-design/icons';
import type { WebhookView } from '@vw/contract';
import { WEBHOOK_EVENTS, webhookEventNames } from '@vw/contract/constants/apikeys.ts';
import {
  App,
  Button,
  Checkbox,
  Input,
  Popconfirm,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { formatDateTime } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { SecretOnce } from './KeyDialogs.tsx';
import { useLoadedList } from './useLoadedList.ts';
import { WebhookDeliveries } from './WebhookDeliveries.tsx';

const t = zhCN.apiKeys;
const pickEndpoints = (d: { endpoints: WebhookView[] }) => d.endpoints;

/** A new endpoint: its URL and the events it receives. */
function AddWebhookForm({ onAdded }: { onAdded: (secret: string) => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [adding, setAdding] = useState(false);
  const add = async () => {
    setAdding(true);
    try {
      const d = await request(api.webhookCreate, {
        body: { url: url.trim(), events: events as (typeof WEBHOOK_EVENTS)[number][] },
      });
      setUrl('');
      await onAdded(d.secret);
    } catch {
      // shown by the client
    } finally {
      setAdding(false);
    }
  };
  return (
    <div className="vw-apikeys-webhook-form">
      <Input
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder={t.webhookUrlPlaceholder}
        data-testid="webhook-url"
        onPressEnter={() => url.trim() && void add()}
      />
      <Checkbox.Group
        value={events}
        onChange={(v) => setEvents(v as string[])}
        options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: webhookEventNames[e] }))}
      />
      <Button
        type="primary"
        loading={adding}
        disabled={!url.trim() || events.length === 0}
        onClick={() => void add()}
        data-testid="webhook-add"
      >
        {t.webhookAdd}
      </Button>
    </div>
  );
}

/** The endpoint's last delivery: its outcome and HTTP status, the error on hover, and when. */
function LastDelivery({ endpoint: w }: { endpoint: WebhookView }) {
  if (!w.last_status) return <span className="vw-apikeys-muted">{t.webhookNone}</span>;
  return (
    <Tooltip title={w.last_error ?? undefined}>
      <span data-testid="webhook-last">
        <Tag color={w.last_status === 'succeeded' ? 'green' : w.last_status === 'failed' ? 'red' : 'orange'}>
          {t.webhookLastStatus[w.last_status] ?? w.last_status}
          {w.last_status_code ? ` ${w.last_status_code}` : ''}
        </Tag>
        {w.last_delivery_time ? formatDateTime(w.last_delivery_time) : ''}
      </span>
    </Tooltip>
  );
}

/** An endpoint's actions: send a test, open the delivery log, re-enable when disabled, delete. */
function WebhookActions({
  endpoint: w,
  onLog,
  onChanged,
}: {
  endpoint: WebhookView;
  onLog: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const { message } = App.useApp();
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    try {
      const r = await request(api.webhookTest, { body: { endpoint_id: w.endpoint_id } });
      if (r.delivered) message.success(t.webhookTestOk(r.status_code));
      else message.error(t.webhookTestFailed(r.error ?? ''));
      await onChanged();
    } catch {
      // shown by the client
    } finally {
      setTesting(false);
    }
  };
  return (
    <Space size={4}>
      <Button
        size="small"
        icon={<SendOutlined />}
        loading={testing}
        data-testid="webhook-test"
        onClick={test}
      >
        {t.webhookTest}
      </Button>
      <Button size="small" icon={<HistoryOutlined />} data-testid="webhook-deliveries" onClick={onLog}>
        {t.webhookDeliveries}
      </Button>
      {w.status === 'disabled' && (
        <Button
          size="small"
          onClick={async () => {
            await request(api.webhookEnable, { body: { endpoint_id: w.endpoint_id } }).catch(() => undefined);
            await onChanged();
          }}
        >
          {t.webhookEnable}
        </Button>
      )}
      <Popconfirm
        title={t.webhookDeleteTitle}
        okText={t.webhookDelete}
        cancelText={t.cancel}
        onConfirm={async () => {
          await request(api.webhookDelete, { body: { endpoint_id: w.endpoint_id } }).catch(() => undefined);
          await onChanged();
        }}
      >
        <Button size="small" danger type="text" icon={<DeleteOutlined />} aria-label={t.webhookDelete} />
      </Popconfirm>
    </Space>
  );
}

/** The user's webhook endpoints: add (secret shown once), test delivery, delivery log, re-enable, delete. */
export function Webhooks() {
  const { list, loading, reload: load } = useLoadedList(api.webhookList, pickEndpoints);
  const [secret, setSecret] = useState<string | null>(null);
  // By id, so the open log follows the endpoint's reloaded status (a redelivery changes it).
  const [logOf, setLogOf] = useState<string | null>(null);
  const logEndpoint = list.find((w) => w.endpoint_id === logOf) ?? null;

  const columns: TableColumnsType<WebhookView> = [
    { title: t.webhookUrl, dataIndex: 'url', ellipsis: true, render: (u: string) => <code>{u}</code> },
    {
      title: t.webhookEvents,
      dataIndex: 'events',
      width: 180,
      render: (evs: string[]) => evs.map((e) => <Tag key={e}>{webhookEventNames[e] ?? e}</Tag>),
    },
    {
      title: t.colStatus,
      dataIndex: 'status',
      width: 100,
      render: (s: string) => (
        <Tag color={s === 'active' ? 'green' : 'red'} data-testid="webhook-status">
          {t.webhookStatus[s]}
        </Tag>
      ),
    },
    {
      title: t.webhookLast,
      width: 220,
      render: (_, w) => <LastDelivery endpoint={w} />,
    },
    {
      title: t.colActions,
      width: 330,
      render: (_, w) => (
        <WebhookActions endpoint={w} onLog={() => setLogOf(w.endpoint_id)} onChanged={load} />
      ),
    },
  ];

  return (
    <section className="vw-card" data-testid="webhooks">
      <div className="vw-card-head">
        <h2>{t.webhooks}</h2>
      </div>
      <p className="vw-apikeys-hint">{t.webhooksHint}</p>
      <AddWebhookForm
        onAdded={async (newSecret) => {
          setSecret(newSecret);
          await load();
        }}
      />
      <Table
        rowKey="endpoint_id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={list}
        pagination={false}
        locale={{ emptyText: t.webhookEmpty }}
        data-testid="webhook-table"
      />
      <WebhookDeliveries
        endpoint={logEndpoint}
        onClose={() => setLogOf(null)}
        onDelivered={() => void load()}
      />
      <SecretOnce
        title={t.webhookSecretTitle}
        warning={t.webhookSecretWarning}
        secret={secret}
        onClose={() => setSecret(null)}
      />
    </section>
  );
}
