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

/** The user's webhook endpoints: add (secret shown once), test delivery, delivery log, re-enable, delete. */
export function Webhooks() {
  const { message } = App.useApp();
  const { list, loading, reload: load } = useLoadedList(api.webhookList, pickEndpoints);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  // By id, so the open log follows the endpoint's reloaded status (a redelivery changes it).
  const [logOf, setLogOf] = useState<string | null>(null);
  const logEndpoint = list.find((w) => w.endpoint_id === logOf) ?? null;

  const add = async () => {
    setAdding(true);
    try {
      const d = await request(api.webhookCreate, {
        body: { url: url.trim(), events: events as (typeof WEBHOOK_EVENTS)[number][] },
      });
      setUrl('');
      setSecret(d.secret);
      await load();
    } catch {
      // shown by the client
    } finally {
      setAdding(false);
    }
  };

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
      render: (_, w) =>
        w.last_status ? (
          <Tooltip title={w.last_error ?? undefined}>
            <span data-testid="webhook-last">
              <Tag
                color={
                  w.last_status === 'succeeded' ? 'green' : w.last_status === 'failed' ? 'red' : 'orange'
                }
              >
                {t.webhookLastStatus[w.last_status] ?? w.last_status}
                {w.last_status_code ? ` ${w.last_status_code}` : ''}
              </Tag>
              {w.last_delivery_time ? formatDateTime(w.last_delivery_time) : ''}
            </span>
          </Tooltip>
        ) : (
          <span className="vw-apikeys-muted">{t.webhookNone}</span>
        ),
    },
    {
      title: t.colActions,
      width: 330,
      render: (_, w) => (
        <Space size={4}>
          <Button
            size="small"
            icon={<SendOutlined />}
            loading={testing === w.endpoint_id}
            data-testid="webhook-test"
            onClick={async () => {
              setTesting(w.endpoint_id);
              try {
                const r = await request(api.webhookTest, { body: { endpoint_id: w.endpoint_id } });
                if (r.delivered) message.success(t.webhookTestOk(r.status_code));
                else message.error(t.webhookTestFailed(r.error ?? ''));
                await load();
              } catch {
                // shown by the client
              } finally {
                setTesting(null);
              }
            }}
          >
            {t.webhookTest}
          </Button>
          <Button
            size="small"
            icon={<HistoryOutlined />}
            data-testid="webhook-deliveries"
            onClick={() => setLogOf(w.endpoint_id)}
          >
            {t.webhookDeliveries}
          </Button>
          {w.status === 'disabled' && (
            <Button
              size="small"
              onClick={async () => {
                await request(api.webhookEnable, { body: { endpoint_id: w.endpoint_id } }).catch(
                  () => undefined,
                );
                await load();
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
              await request(api.webhookDelete, { body: { endpoint_id: w.endpoint_id } }).catch(
                () => undefined,
              );
              await load();
            }}
          >
            <Button size="small" danger type="text" icon={<DeleteOutlined />} aria-label={t.webhookDelete} />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <section className="vw-card" data-testid="webhooks">
      <div className="vw-card-head">
        <h2>{t.webhooks}</h2>
      </div>
      <p className="vw-apikeys-hint">{t.webhooksHint}</p>
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
