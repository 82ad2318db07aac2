import {
  CheckCircleFilled,
  CloseCircleOutlined,
  CloseOutlined,
  CustomerServiceOutlined,
  FileOutlined,
  FileTextOutlined,
  LoadingOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { App, Progress } from 'antd';
import { useEffect, useRef } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { type DownloadTask, downloadProgress, useDownloadStore } from '@/stores/download.ts';
import { downloadManager, setDownloadToast } from './center.ts';
import './downloads.css';

const t = zhCN.downloads;

/** Type tag of spec §2: MP4 video, MP3 audio, SRT subtitle, FILE otherwise. */
export function typeTag(task: Pick<DownloadTask, 'downloadTaskType'>): string {
  switch (task.downloadTaskType) {
    case 'video':
      return 'MP4';
    case 'audio':
      return 'MP3';
    case 'srt':
      return 'SRT';
    case 'file':
      return 'FILE';
    default:
      return 'FILE';
  }
}

function Cover({ task }: { task: DownloadTask }) {
  if (task.downloadTaskType === 'video' && task.extData?.first_image)
    return <img className="vw-dl-cover" src={task.extData.first_image} alt="" />;
  return (
    <span className={`vw-dl-cover is-icon is-${task.downloadTaskType}`} aria-hidden>
      {task.downloadTaskType === 'srt' ? (
        <FileTextOutlined />
      ) : task.downloadTaskType === 'video' ? (
        <VideoCameraOutlined />
      ) : task.downloadTaskType === 'file' ? (
        <FileOutlined />
      ) : (
        <CustomerServiceOutlined />
      )}
    </span>
  );
}

function Row({ task }: { task: DownloadTask }) {
  const state = task.taskState;
  const withBar = state === 'normal' || state === 'suspend' || state === 'success';
  return (
    <li className={`vw-dl-row is-${state}`} data-testid="download-row" data-state={state} data-key={task.key}>
      <Cover task={task} />
      <div className="vw-dl-main">
        <div className="vw-dl-title">
          <span className="vw-dl-tag" data-testid="download-tag">
            {typeTag(task)}
          </span>
          <span className="vw-dl-name" title={task.savedAs ?? `${task.fileName}.${task.ext}`}>
            {task.savedAs ?? `${task.fileName}.${task.ext}`}
          </span>
        </div>
        {withBar && (
          <Progress
            percent={task.customData.percent}
            size="small"
            showInfo={false}
            status={state === 'success' ? 'success' : 'active'}
            data-testid="download-progress"
            data-percent={task.customData.percent}
          />
        )}
      </div>
      <div className="vw-dl-side">
        {state === 'normal' && (
          <button
            type="button"
            className="vw-dl-cancel"
            aria-label={t.cancel}
            title={t.cancel}
            data-testid="download-cancel"
            onClick={() => downloadManager.cancel(task.key)}
          >
            <CloseCircleOutlined />
          </button>
        )}
        {state === 'success' && <CheckCircleFilled className="vw-dl-done" data-testid="download-done" />}
        {state === 'suspend' && <LoadingOutlined className="vw-dl-spin" data-testid="download-suspended" />}
        {state === 'cancel' && <span className="vw-dl-cancelled">{t.cancelled}</span>}
        {state === 'error' && (
          <button
            type="button"
            className="vw-dl-retry"
            data-testid="download-retry"
            title={task.errorMessage}
            onClick={() => downloadManager.retry(task.key)}
          >
            {t.retry}
          </button>
        )}
      </div>
    </li>
  );
}

/** The download list panel of spec §2 (516 × 363), opened from the sidebar entry. */
export function DownloadPanel() {
  const tasks = useDownloadStore((s) => s.tasks);
  const open = useDownloadStore((s) => s.panelOpen);
  const setOpen = useDownloadStore((s) => s.setPanelOpen);
  const ref = useRef<HTMLDivElement>(null);
  const { message } = App.useApp();

  useEffect(() => setDownloadToast((text, level) => message[level](text)), [message]);

  // Clicking outside closes it (the sidebar entry toggles it itself).
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const target = e.target as Element | null;
      if (ref.current?.contains(target as Node) || target?.closest?.('[data-testid="download-entry"]'))
        return;
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, setOpen]);

  if (!open || tasks.length === 0) return null;
  const { completed, total } = downloadProgress(tasks);
  return (
    <div className="vw-dl-panel" ref={ref} data-testid="download-panel" role="dialog" aria-label={t.title}>
      <div className="vw-dl-head">
        <span data-testid="download-count">
          {t.title} {completed}/{total}
        </span>
        <button type="button" aria-label={zhCN.app.close} onClick={() => setOpen(false)}>
          <CloseOutlined />
        </button>
      </div>
      <ul className="vw-dl-list">
        {[...tasks].reverse().map((task) => (
          <Row key={task.key} task={task} />
        ))}
      </ul>
    </div>
  );
}
