import { CrownOutlined, DownloadOutlined, ReloadOutlined, ShoppingOutlined } from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import type { CallData, Consumption, CreditLot, CreditSource, CreditTool, creditsCalls } from '@vw/contract';
import {
  App,
  Button,
  DatePicker,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Tooltip,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PlanBadge } from '@/components/PlanBadge.tsx';
import { type ExportOutcome, runExport } from '@/features/credits/exportPoller.ts';
import { formatCredits, formatDate, formatDateTime } from '@/features/credits/format.ts';
import { LotList } from '@/features/credits/LotList.tsx';
import { UsageChart } from '@/features/credits/UsageChart.tsx';
import { useTenantBalance } from '@/features/credits/useTenantBalance.ts';
import { api } from '@/lib/api.ts';
import { creditSourceNames, creditSources, creditToolNames, creditTools } from '@/lib/credits.ts';
import dayjs, { type Dayjs } from '@/lib/dayjs.ts';
import type { DataOf, QueryOf, RequestInput } from '@/lib/http/client.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { openCreditTopUp } from '@/stores/dialogs.ts';
import { planOf, useUserStore } from '@/stores/user.ts';
import '@/features/credits/credits.css';

const t = zhCN.usage;
const PAGE_SIZE = 10;

type Range = [Dayjs, Dayjs];
/** A day range as the API wants it: unix seconds, start inclusive, end exclusive. */
const toSeconds = ([from, to]: Range) => ({
  start_time: from.startOf('day').unix(),
  end_time: to.add(1, 'day').startOf('day').unix(),
});
const lastDays = (n: number): Range => [
  dayjs()
    .subtract(n - 1, 'day')
    .startOf('day'),
  dayjs().startOf('day'),
];

/** A server-paged list that reloads when its query changes (the rows shown stay while it loads). */
function usePaged<C extends typeof api.getConsumeDetails | typeof api.getEarnDetails>(
  call: C,
  query: QueryOf<C>,
) {
  const q = useCall(call, { query } as RequestInput<C>, { staleTime: 0, placeholderData: keepPreviousData });
  const data = q.data as { total: number; list: DataOf<C>['list'] } | undefined;
  return { total: data?.total ?? 0, list: data?.list ?? [], loading: q.isFetching, reload: q.refetch };
}

function BalanceCard() {
  const navigate = useNavigate();
  const bonus = useUserStore((s) => s.tenantBonus);
  const plan = planOf(bonus);
  const { data, loading, failed, reload } = useTenantBalance();
  return (
    <>
      <section className="vw-card vw-usage-balance" data-testid="usage-balance">
        <div className="vw-usage-balance-label">{zhCN.credits.balance}</div>
        <div className="vw-usage-balance-value" data-testid="usage-balance-amount">
          {formatCredits(data?.balance ?? plan.credits)}
        </div>
        <div className="vw-usage-balance-meta">
          <Tooltip title={zhCN.credits.heldHint}>
            <span>
              {zhCN.credits.held} <strong data-testid="usage-held">{formatCredits(data?.held ?? 0)}</strong>
            </span>
          </Tooltip>
        </div>
        <div className="vw-usage-plan">
          <span className="vw-usage-plan-label">{t.currentPlan}</span>
          <PlanBadge name={plan.name} isFree={plan.isFree} />
          <span className="vw-usage-plan-expiry">
            {plan.expiresAt ? zhCN.credits.expiresOn(formatDate(plan.expiresAt)) : zhCN.plan.noExpiry}
          </span>
        </div>
        <div className="vw-usage-balance-actions">
          <Button type="primary" icon={<ShoppingOutlined />} onClick={openCreditTopUp}>
            {t.buyCredits}
          </Button>
          <Button icon={<CrownOutlined />} onClick={() => navigate('/subscription')}>
            {t.membershipCentre}
          </Button>
        </div>
      </section>
      <section className="vw-card vw-usage-lots">
        <div className="vw-card-head">
          <h2>{zhCN.credits.lots}</h2>
          <Button
            type="text"
            size="small"
            icon={<ReloadOutlined />}
            loading={loading}
            onClick={() => void reload()}
            aria-label={zhCN.credits.retry}
          />
        </div>
        <div className="vw-usage-lots-list">
          {failed ? (
            <div className="vw-lots-empty">{zhCN.credits.loadFailed}</div>
          ) : loading && !data ? (
            <Skeleton active paragraph={{ rows: 4 }} title={false} />
          ) : (
            <LotList lots={data?.lots ?? []} />
          )}
        </div>
      </section>
    </>
  );
}

type Usage = CallData<typeof creditsCalls.getCreditUsage>;

function ChartCard({ range }: { range: Range }) {
  const seconds = toSeconds(range);
  const q = useCall(api.getCreditUsage, { body: seconds }, { staleTime: 0 });
  const usage: Usage | null = q.isError ? null : (q.data ?? null);
  const loading = q.isFetching;
  return (
    <section className="vw-card vw-usage-chart-card">
      <div className="vw-card-head">
        <h2>{t.chart}</h2>
        <span className="vw-usage-chart-total" data-testid="usage-total">
          {t.chartTotal(formatCredits(usage?.total ?? 0))}
        </span>
      </div>
      {loading && !usage ? (
        <Skeleton active paragraph={{ rows: 5 }} title={false} />
      ) : (
        <UsageChart
          days={usage?.days ?? []}
          from={range[0].format('YYYY-MM-DD')}
          to={range[1].format('YYYY-MM-DD')}
        />
      )}
    </section>
  );
}

const statusColor: Record<Consumption['status'], string> = {
  held: 'processing',
  captured: 'default',
  released: 'success',
};

const consumeColumns: TableColumnsType<Consumption> = [
  { title: t.colTime, dataIndex: 'created_time', width: 160, render: (v: number) => formatDateTime(v) },
  {
    title: t.colTool,
    dataIndex: 'tool',
    width: 120,
    render: (tool: CreditTool, row) => row.tool_name || creditToolNames[tool] || tool,
  },
  {
    title: t.colTask,
    dataIndex: 'task_name',
    ellipsis: true,
    render: (v: string, row) => v || row.task_id || t.noTask,
  },
  {
    title: t.colCredits,
    dataIndex: 'credits',
    width: 110,
    align: 'right',
    render: (v: number, row) => (
      <span className={`vw-credits-out ${row.status === 'released' ? 'is-released' : ''}`}>
        -{formatCredits(v)}
      </span>
    ),
  },
  {
    title: t.colStatus,
    dataIndex: 'status',
    width: 116,
    className: 'vw-col-gap',
    render: (s: Consumption['status']) => (
      <Tag color={statusColor[s]} bordered={false}>
        {t.status[s] ?? s}
      </Tag>
    ),
  },
  {
    title: t.colLots,
    dataIndex: 'lots',
    width: 220,
    render: (lots: Consumption['lots']) =>
      lots.length === 0
        ? t.noTask
        : lots
            .map((l) => `${creditSourceNames[l.source] ?? l.source} ${formatCredits(l.credits)}`)
            .join('，'),
  },
];

const earnColumns: TableColumnsType<CreditLot> = [
  { title: t.colTime, dataIndex: 'created_time', width: 160, render: (v: number) => formatDateTime(v) },
  {
    title: t.colSource,
    dataIndex: 'source',
    width: 120,
    render: (s: CreditSource, row) => row.source_name || creditSourceNames[s] || s,
  },
  {
    title: t.colAmount,
    dataIndex: 'amount',
    width: 110,
    align: 'right',
    render: (v: number) => <span className="vw-credits-in">+{formatCredits(v)}</span>,
  },
  {
    title: t.colRemaining,
    dataIndex: 'remaining',
    width: 100,
    align: 'right',
    render: (v: number) => formatCredits(v),
  },
  {
    title: t.colEffective,
    dataIndex: 'effective_time',
    width: 140,
    className: 'vw-col-gap',
    render: (v: number) => formatDate(v),
  },
  {
    title: t.colExpiry,
    dataIndex: 'expired_time',
    width: 120,
    render: (v: number) => (v > 0 ? formatDate(v) : zhCN.plan.noExpiry),
  },
  { title: t.colRemark, dataIndex: 'remark', ellipsis: true, render: (v: string) => v || t.noTask },
];

/**
 * Page and page size of a table whose filters are `filterKey`: a new filter (or time range)
 * starts again from the first page, keeping the page size.
 */
function usePage(filterKey: string) {
  const [state, setState] = useState({ key: filterKey, page: 1, page_size: PAGE_SIZE });
  const page = state.key === filterKey ? state.page : 1;
  const paging = { page, page_size: state.page_size };
  const pagination = (total: number) => ({
    current: page,
    pageSize: state.page_size,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50],
    showTotal: (n: number) => t.total(n),
    onChange: (p: number, size: number) =>
      setState({ key: filterKey, page: size !== state.page_size ? 1 : p, page_size: size }),
  });
  return { paging, pagination };
}

function ConsumeTab({ range, exportButton }: { range: Range; exportButton: React.ReactNode }) {
  const [tool, setTool] = useState<CreditTool | undefined>();
  const seconds = toSeconds(range);
  const { paging, pagination } = usePage(`${tool}|${seconds.start_time}|${seconds.end_time}`);
  const query = { ...paging, ...seconds, tool };
  const list = usePaged(api.getConsumeDetails, query);
  return (
    <>
      <div className="vw-usage-filters">
        <Select
          allowClear
          placeholder={t.allTools}
          value={tool}
          onChange={setTool}
          style={{ width: 160 }}
          options={creditTools.map((v) => ({ value: v, label: creditToolNames[v] }))}
          data-testid="consume-tool-filter"
        />
        <div className="vw-usage-filters-spacer" />
        {exportButton}
      </div>
      <Table<Consumption>
        rowKey="id"
        size="middle"
        columns={consumeColumns}
        dataSource={list.list}
        loading={list.loading}
        data-testid="consume-table"
        pagination={pagination(list.total)}
      />
    </>
  );
}

function EarnTab({ range }: { range: Range }) {
  const [source, setSource] = useState<CreditSource | undefined>();
  const seconds = toSeconds(range);
  const { paging, pagination } = usePage(`${source}|${seconds.start_time}|${seconds.end_time}`);
  const query = { ...paging, ...seconds, source };
  const list = usePaged(api.getEarnDetails, query);
  return (
    <>
      <div className="vw-usage-filters">
        <Select
          allowClear
          placeholder={t.allSources}
          value={source}
          onChange={setSource}
          style={{ width: 160 }}
          options={creditSources.map((v) => ({ value: v, label: creditSourceNames[v] }))}
          data-testid="earn-source-filter"
        />
      </div>
      <Table<CreditLot>
        rowKey="lot_id"
        size="middle"
        columns={earnColumns}
        dataSource={list.list}
        loading={list.loading}
        data-testid="earn-table"
        pagination={pagination(list.total)}
      />
    </>
  );
}

/** Export of the consumption details with status polling (spec §4, §8, §9). */
function useExport() {
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const start = async (range: Range) => {
    if (controller.current) return; // one export at a time
    const ctrl = new AbortController();
    controller.current = ctrl;
    setExporting(true);
    const key = 'vw-export';
    message.loading({ key, content: t.exportStarted, duration: 0 });
    let outcome: ExportOutcome;
    try {
      outcome = await runExport(toSeconds(range), ctrl.signal);
    } finally {
      controller.current = null;
      setExporting(false);
    }
    if (outcome.kind === 'cancelled') return message.destroy(key);
    if (outcome.kind === 'failed') return message.error({ key, content: outcome.text });
    message.success({ key, content: t.exportDone });
  };
  return { exporting, start };
}

/** Route /usage: balance and lots, daily usage chart, consumption and earn details, export. */
export function Component() {
  const [range, setRange] = useState<Range>(() => lastDays(30));
  const [tab, setTab] = useState('consume');
  const exp = useExport();
  const presets = useMemo(
    () => [
      { label: t.last7, value: lastDays(7) },
      { label: t.last30, value: lastDays(30) },
      { label: t.last90, value: lastDays(90) },
    ],
    [],
  );
  const exportButton = (
    <Button
      icon={<DownloadOutlined />}
      loading={exp.exporting}
      onClick={() => void exp.start(range)}
      data-testid="export-consume"
    >
      {exp.exporting ? t.exporting : t.export}
    </Button>
  );
  return (
    <div className="vw-page vw-usage" data-testid="usage-page">
      <header className="vw-page-header vw-usage-header">
        <div>
          <h1>{t.title}</h1>
          <p>{t.subtitle}</p>
        </div>
        <div className="vw-usage-range">
          <span>{t.range}</span>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            presets={presets}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            data-testid="usage-range"
          />
        </div>
      </header>
      <div className="vw-usage-top">
        <BalanceCard />
      </div>
      <ChartCard range={range} />
      <section className="vw-card vw-usage-details">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'consume',
              label: t.consume,
              children: <ConsumeTab range={range} exportButton={exportButton} />,
            },
            { key: 'earn', label: t.earn, children: <EarnTab range={range} /> },
          ]}
        />
      </section>
    </div>
  );
}
