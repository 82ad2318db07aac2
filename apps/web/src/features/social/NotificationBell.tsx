import { BellOutlined } from '@ant-design/icons';
import type { TaskView } from '@vw/contract';
import { taskToolNames } from '@vw/contract/constants/tasks.ts';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button.tsx';
import { Popover } from '@/components/ui/Popover.tsx';
import { api } from '@/lib/api.ts';
import { enableNotifications } from '@/lib/notifications.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { useTaskStream } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUserStore } from '@/stores/user.ts';

const n = zhCN.notifications;
const SHOWN = 10;
/** While the task stream is down, the list is refreshed this often instead. */
const POLL_MS = 30_000;

const seenKey = (uid: string) => `vw-bell-seen:${uid}`;
const readSeen = (uid: string) => Number(localStorage.getItem(seenKey(uid)) ?? 0);

/** Where a finished task's result is: its editor project, else its tool's page. */
export function taskTarget(task: Pick<TaskView, 'tool' | 'project_id'>): string {
  if (task.project_id) return `/video-translation/editor?id=${encodeURIComponent(task.project_id)}`;
  const pages: Partial<Record<TaskView['tool'], string>> = {
    tts: '/tts',
    voice_changer: '/voice-changer',
    voice_clone: '/voice-cloning',
    audiobook: '/audio-book',
    credits_export: '/usage',
  };
  return pages[task.tool] ?? '/video-translation';
}

/**
 * The bell of the social bar: the user's recently finished tasks (from the task list, kept fresh by
 * the task stream), with the number not yet seen; and the switch for browser notifications, which
 * reach the user when no tab is open.
 */
export function NotificationBell() {
  const { message } = useApp();
  const navigate = useNavigate();
  const uid = useUserStore((s) => s.userInfo?.uid ?? '');
  const mode = useTaskStream();
  const tasks = useCall(
    api.listTasks,
    { query: { page: 1, page_size: 30 } },
    { enabled: !!uid, suppressError: true, refetchInterval: mode === 'live' ? false : POLL_MS },
  );
  const [seen, setSeen] = useState(() => (uid ? readSeen(uid) : 0));
  const [open, setOpen] = useState(false);
  const finished = (tasks.data?.list ?? [])
    .filter((t) => (t.status === 'succeeded' || t.status === 'failed') && t.finished_time !== null)
    .slice(0, SHOWN);
  const unread = finished.filter((t) => (t.finished_time ?? 0) > seen).length;

  const toggle = (next: boolean) => {
    setOpen(next);
    if (next && uid && finished[0]) {
      const latest = finished[0].finished_time ?? 0;
      localStorage.setItem(seenKey(uid), String(latest));
      setSeen(latest);
    }
  };
  const allow = async () => {
    try {
      const result = await enableNotifications();
      if (result === 'enabled') message.success(n.enabled);
      else message.warning(result === 'denied' ? n.denied : n.unsupported);
    } catch (e) {
      message.warning(`${n.unsupported}：${(e as Error).message}`);
    }
  };

  const content = (
    <div className="vw-bell" data-testid="bell-panel">
      <div className="vw-bell-title">{n.title}</div>
      {finished.length === 0 ? (
        <p className="vw-bell-empty">{n.empty}</p>
      ) : (
        <ul className="vw-bell-list">
          {finished.map((t) => (
            <li key={t.task_id}>
              <button
                type="button"
                className="vw-bell-item"
                data-testid="bell-item"
                data-status={t.status}
                onClick={() => {
                  setOpen(false);
                  navigate(taskTarget(t));
                }}
              >
                <strong>{t.status === 'succeeded' ? n.succeeded(t.title) : n.failed(t.title)}</strong>
                <span>
                  {taskToolNames[t.tool]} · {new Date((t.finished_time ?? 0) * 1000).toLocaleString('zh-CN')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Button size="small" type="link" onClick={() => void allow()} data-testid="enable-notifications">
        {n.enable}
      </Button>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="top" open={open} onOpenChange={toggle}>
      <button
        type="button"
        className="vw-social-link vw-bell-trigger"
        aria-label={n.title}
        data-testid="bell"
      >
        <BellOutlined />
        {unread > 0 && (
          <span className="vw-bell-count" data-testid="bell-unread">
            {unread}
          </span>
        )}
      </button>
    </Popover>
  );
}
