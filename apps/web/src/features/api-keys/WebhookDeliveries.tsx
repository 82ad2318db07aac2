import { CopyOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import type { WebhookDeliveryView, WebhookView } from '@vw/contract';
import { WEBHOOK_DELIVERIES_KEPT, webhookEventNames } from '@vw/contract/constants/apikeys.ts';
import { App, Button, Drawer, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { invalidateCall, useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { copyText } from './copy.ts';
import { deliveryStatusTag, formatDeliveryTime, prettyPayload } from './deliveries.ts';

const t = zhCN.apiKeys;
const PAGE_SIZE = 10;
const NO_DELIVERIES = { total: 0, list: [] as WebhookDeliveryView[] };

/** The body as signed, readable, with a copy of the exact bytes (what a signature check needs). */
function Payload({ payload }: { payload: string }) {
  const { message } = App.useApp();
  return (
    <div className="vw-apikeys-payload">
      <div className="vw-apikeys-payload-head">
        <span>{t.deliveryPayload}</span>
        <Button
          size="small"
          icon={<CopyOutlined />}
          data-testid="delivery-copy"
          onClick={async () => {
            if (await copyText(payload)) message.success(t.copied);
            else message.error(t.copyFailed);
          }}
        >
          {t.deliveryCopyRaw}
        </Button>
      </div>
      <pre className="vw-apikeys-code" data-testid="delivery-payload">
        {prettyPayload(payload)}
      </pre>
    </div>
  );
}

/**
 * An endpoint's delivery log (newest first, paged by the server) with the payload of each and
 * 重新投递, which sends the event again now as a new delivery. `onDelivered` lets the endpoint list
 * show the new last status.
 */
export function WebhookDeliveries(props: {
  endpoint: WebhookView | null;
  onClose: () => void;
  onDelivered: () => void;
}) {
  const { endpoint, onDelivered } = props;
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [sending, setSending] = useState<string | null>(null);
  const endpointId = endpoint?.endpoint_id;
  // Another endpoint's log starts at its first page.
  const [shownFor, setShownFor] = useState(endpointId);
  if (shownFor !== endpointId) {
    setShownFor(endpointId);
    setPage(1);
  }
  const deliveries = useCall(
    api.webhookDeliveries,
    { query: { endpoint_id: endpointId ?? '', page, page_size: PAGE_SIZE } },
    { enabled: !!endpointId, staleTime: 0 },
  );
  const data = deliveries.data ?? NO_DELIVERIES;
  const loading = deliveries.isFetching;
  const load = (p: number) => {
    if (p === page) void deliveries.refetch();
    else setPage(p);
  };

  const redeliver = async (d: WebhookDeliveryView) => {
    setSending(d.delivery_id);
    try {
      const r = await request(api.webhookRedeliver, { body: { delivery_id: d.delivery_id } });
      if (r.delivered) message.success(t.redeliverOk(r.status_code));
      else message.error(t.redeliverFailed(r.error ?? ''));
      // The new delivery is the newest: back to the first page, fresh.
      setPage(1);
      await invalidateCall(api.webhookDeliveries);
      onDelivered();
    } catch {
      // shown by the client
    } finally {
      setSending(null);
    }
  };

  const disabled = endpoint?.status !== 'active';
  const columns: TableColumnsType<WebhookDeliveryView> = [
    {
      title: t.deliveryTime,
      dataIndex: 'created_time',
      width: 170,
      render: (s: number) => formatDeliveryTime(s),
    },
    {
      title: t.deliveryEvent,
      dataIndex: 'event',
      width: 90,
      render: (e: string) => webhookEventNames[e] ?? e,
    },
    {
      title: t.colStatus,
      width: 90,
      render: (_, d) => {
        const tag = deliveryStatusTag(d);
        const next = d.next_attempt_time
          ? t.deliveryNextAttempt(formatDeliveryTime(d.next_attempt_time))
          : null;
        return (
          <Tooltip title={next}>
            <Tag color={tag.color} data-testid="delivery-status">
              {tag.label}
            </Tag>
          </Tooltip>
        );
      },
    },
    { title: t.deliveryAttempts, dataIndex: 'attempts', width: 80 },
    {
      title: t.deliveryCode,
      dataIndex: 'last_status_code',
      width: 100,
      render: (c: number | null) => c ?? '—',
    },
    {
      title: t.deliveryError,
      dataIndex: 'last_error',
      ellipsis: true,
      render: (e: string | null) => e ?? '—',
    },
    {
      title: t.colActions,
      width: 120,
      render: (_, d) => (
        <Tooltip title={disabled ? t.redeliverDisabled : null}>
          <Button
            size="small"
            icon={<SendOutlined />}
            disabled={disabled}
            loading={sending === d.delivery_id}
            data-testid="delivery-redeliver"
            onClick={() => void redeliver(d)}
          >
            {t.redeliver}
          </Button>
        </Tooltip>
      ),
    },
  ];

  return (
    <Drawer
      open={endpoint !== null}
      onClose={props.onClose}
      width={960}
      title={endpoint ? t.deliveriesTitle(endpoint.url) : ''}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => load(page)} data-testid="deliveries-refresh">
          {t.deliveriesRefresh}
        </Button>
      }
      data-testid="deliveries-drawer"
    >
      <p className="vw-apikeys-hint">{t.deliveriesHint(WEBHOOK_DELIVERIES_KEPT)}</p>
      <Table
        rowKey="delivery_id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={data.list}
        expandable={{ expandedRowRender: (d) => <Payload payload={d.payload} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data.total,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: (p) => load(p),
        }}
        locale={{ emptyText: t.deliveriesEmpty }}
        data-testid="delivery-table"
      />
    </Drawer>
  );
}
