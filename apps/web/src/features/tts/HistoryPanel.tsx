import {
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  HistoryOutlined,
  LoadingOutlined,
} from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import type { HistoryItem } from '@vw/contract';
import useApp from 'antd/es/app/useApp';
import { Suspense, useEffect, useRef, useState } from 'react';
import { HoverTip } from '@/components/HoverTip.tsx';
import { Button } from '@/components/ui/Button.tsx';
import { Checkbox } from '@/components/ui/Checkbox.tsx';
import { MenuButton } from '@/components/ui/MenuButton.tsx';
import { EmptyState, SkeletonLines } from '@/components/ui/Placeholder.tsx';
import { Popconfirm } from '@/components/ui/Popover.tsx';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { invalidateCall, useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatClock } from './AudioPlayer.tsx';
import { canDownload, type DownloadKind, queueDownloads } from './downloads.ts';
import { allState, pickForBatch, prune, toggle, toggleAll } from './history.ts';
import { Progress } from './lazyProgress.ts';
import { useTtsStore } from './store.ts';

const t = zhCN.tts;
const PAGE_SIZE = 20;
const NO_ITEMS: HistoryItem[] = [];
const isBusy = (i: HistoryItem) => i.status === 'queued' || i.status === 'running';

const fmtTime = (sec: number) => {
  const d = new Date(sec * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getMonth() + 1}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

function Rename({ item, onDone }: { item: HistoryItem; onDone: () => void }) {
  const { message } = useApp();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(item.name);
  if (!editing)
    return (
      <HoverTip title={t.historyRename}>
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t.historyRename}
          data-testid="history-rename"
          onClick={(e) => {
            e.stopPropagation();
            setName(item.name);
            setEditing(true);
          }}
        />
      </HoverTip>
    );
  const save = async () => {
    const v = name.trim();
    setEditing(false);
    if (!v || v === item.name) return;
    await request(api.editHistory, { body: { history_id: item.history_id, name: v } });
    message.success(t.historyRenamed);
    onDone();
  };
  return (
    <input
      // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
      autoFocus
      value={name}
      maxLength={100}
      placeholder={t.historyNamePlaceholder}
      aria-label={t.historyRename}
      onChange={(e) => setName(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.nativeEvent.isComposing) void save();
      }}
      onBlur={() => void save()}
      onClick={(e) => e.stopPropagation()}
      className="vw-input-small vw-history-rename"
      data-testid="history-rename-input"
    />
  );
}

/** One generation: pick it, load it (when it succeeded), its details and status, rename or delete it. */
function HistoryRow({
  item,
  active,
  selected,
  onToggle,
  onOpen,
  onRemove,
  onRenamed,
}: {
  item: HistoryItem;
  active: boolean;
  selected: boolean;
  onToggle: () => void;
  onOpen: (item: HistoryItem) => void;
  onRemove: () => Promise<void>;
  onRenamed: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the load button is the keyboard path
    <li
      className={`vw-history-item ${active ? 'is-active' : ''}`}
      data-testid="history-item"
      data-history-id={item.history_id}
      data-status={item.status}
      onClick={() => item.status === 'succeeded' && onOpen(item)}
    >
      <Checkbox
        checked={selected}
        onClick={(e) => e.stopPropagation()}
        onChange={onToggle}
        aria-label={item.name}
      />
      <div className="vw-history-main">
        <div className="vw-history-name" data-testid="history-name">
          {item.name}
        </div>
        <div className="vw-history-meta">
          <span>{item.voice_name}</span>
          <span>{fmtTime(item.created_time)}</span>
          {item.duration_ms > 0 && <span>{formatClock(item.duration_ms / 1000)}</span>}
          <span>{t.characterCount(item.characters)}</span>
          {(item.self_check?.flagged ?? 0) > 0 && (
            <span className="vw-history-flag" data-testid="history-flag">
              {zhCN.selfCheck.historyFlagged(item.self_check!.flagged)}
            </span>
          )}
        </div>
        {(item.status === 'running' || item.status === 'queued') && (
          <Suspense fallback={null}>
            <Progress percent={Math.round(item.progress)} size="small" showInfo={false} />
          </Suspense>
        )}
      </div>
      <span className="vw-history-status">
        {item.status === 'succeeded' ? (
          <CheckCircleFilled className="is-ok" />
        ) : item.status === 'failed' ? (
          <HoverTip title={item.error || t.failed}>
            <CloseCircleFilled className="is-failed" />
          </HoverTip>
        ) : (
          <LoadingOutlined />
        )}
      </span>
      <div className="vw-history-actions">
        <Rename item={item} onDone={onRenamed} />
        <Popconfirm
          title={t.historyDeleteOne}
          okText={t.confirm}
          cancelText={t.cancel}
          okDanger
          onConfirm={onRemove}
        >
          <Button
            type="text"
            size="small"
            icon={<DeleteOutlined />}
            aria-label={t.historyDelete}
            data-testid="history-delete"
            onClick={(e) => e.stopPropagation()}
          />
        </Popconfirm>
      </div>
    </li>
  );
}

/** Generation history: load an item, rename, delete, and batch delete / download. */
export function HistoryPanel({ onOpen }: { onOpen: (item: HistoryItem) => void }) {
  const { message } = useApp();
  const version = useTtsStore((s) => s.historyVersion);
  const bump = useTtsStore((s) => s.bumpHistory);
  const activeId = useTtsStore((s) => s.gen.item?.history_id);
  const [pages, setPages] = useState(1);
  const [sel, setSel] = useState<Set<string>>(new Set());

  const history = useCall(
    api.getHistory,
    { query: { tool: 'tts', page: 1, page_size: PAGE_SIZE * pages } },
    {
      suppressError: true,
      staleTime: 0,
      // "Load more" keeps the rows shown while the longer page loads.
      placeholderData: keepPreviousData,
      // Items still being made refresh on their own.
      refetchInterval: (q) => (q.state.data?.list.some(isBusy) ? 2000 : false),
    },
  );
  const items = history.data?.list ?? NO_ITEMS;
  const total = history.data?.total ?? 0;
  const loading = history.isFetching;
  useEffect(() => {
    const ids = history.data?.list.map((i) => i.history_id);
    if (ids) setSel((s) => prune(s, ids));
  }, [history.data]);
  // A generation, rename or delete bumps the version: reload the list.
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    seenVersion.current = version;
    void invalidateCall(api.getHistory);
  }, [version]);

  const ids = items.map((i) => i.history_id);
  const state = allState(sel, ids);
  const withId = items.map((i) => ({ ...i, id: i.history_id }));

  const remove = async (id: string) => {
    await request(api.deleteHistory, { body: { history_id: id } });
    message.success(t.historyDeleted);
    bump();
  };
  const batchDelete = async () => {
    const picked = pickForBatch(sel, withId);
    if (picked.length === 0) return;
    await request(api.batchDeleteHistory, { body: { history_ids: picked.map((i) => i.history_id) } });
    message.success(t.historyDeleted);
    setSel(new Set());
    bump();
  };
  const batchDownload = (kind: DownloadKind) => {
    const picked = pickForBatch(sel, withId, (i) => canDownload(i, kind));
    if (picked.length === 0) return;
    queueDownloads(picked.map((item) => ({ item, kind })));
    message.success(t.historyDownloadQueued(picked.length));
  };

  return (
    <section className="vw-card vw-history" data-testid="tts-history">
      <div className="vw-card-head">
        <h2>
          <HistoryOutlined className="vw-title-icon" /> {t.history}
        </h2>
        <span className="vw-card-hint">{total > 0 ? t.historyTotal(total) : ''}</span>
      </div>
      {items.length > 0 && (
        <div className="vw-history-bar">
          <Checkbox
            checked={state === 'all'}
            indeterminate={state === 'some'}
            onChange={() => setSel((s) => toggleAll(s, ids))}
            data-testid="history-select-all"
          >
            {sel.size > 0 ? t.historySelected(sel.size) : t.historySelectAll}
          </Checkbox>
          <div className="vw-history-bar-actions">
            <MenuButton
              disabled={sel.size === 0}
              items={[
                { key: 'mp3', label: t.downloadMp3 },
                { key: 'wav', label: t.downloadWav },
                { key: 'srt', label: t.downloadSrt },
              ]}
              onSelect={batchDownload}
              size="small"
              icon={<DownloadOutlined />}
              data-testid="history-batch-download"
            >
              {t.historyBatchDownload}
            </MenuButton>
            <Popconfirm
              title={t.historyDeleteConfirm(sel.size)}
              okText={t.confirm}
              cancelText={t.cancel}
              okDanger
              onConfirm={batchDelete}
              disabled={sel.size === 0}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                disabled={sel.size === 0}
                data-testid="history-batch-delete"
              >
                {t.historyBatchDelete}
              </Button>
            </Popconfirm>
          </div>
        </div>
      )}
      {loading && items.length === 0 ? (
        <SkeletonLines rows={3} label={zhCN.app.loading} />
      ) : items.length === 0 ? (
        <EmptyState description={t.historyEmpty} />
      ) : (
        <ul className="vw-history-list">
          {items.map((item) => (
            <HistoryRow
              key={item.history_id}
              item={item}
              active={item.history_id === activeId}
              selected={sel.has(item.history_id)}
              onToggle={() => setSel((s) => toggle(s, item.history_id))}
              onOpen={onOpen}
              onRemove={() => remove(item.history_id)}
              onRenamed={bump}
            />
          ))}
        </ul>
      )}
      {items.length < total && (
        <Button type="link" block onClick={() => setPages((p) => p + 1)}>
          {t.historyLoadMore}
        </Button>
      )}
    </section>
  );
}
