import type { TaskView } from '@vw/contract';
import { taskStatusNames } from '@vw/contract/constants/tasks.ts';
import { Button, Popconfirm, Progress } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { api } from '../api.ts';
import { setCallData, useCallMutation } from '../query/hooks.ts';
import { elapsedSeconds, formatDuration, remainingSeconds, stageLabel } from './format.ts';
import { isFinished } from './useTask.ts';
import './tasks.css';

const t = zhCN.tasks;
/** The brand colour for a bar still moving (antd's default is its own blue). */
const BRAND = '#4f46e5';

/** The current time, ticking every second while `running`. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [running]);
  return now;
}

/** The server's estimate counted down between its updates (each update brings a fresh one). */
function useTimeLeft(task: TaskView, now: number): number | null {
  const left = remainingSeconds(task);
  const [since, setSince] = useState({ left, at: Date.now() });
  useEffect(() => setSince({ left, at: Date.now() }), [left]);
  if (left == null || since.left !== left) return left;
  // The clock ticked before this estimate arrived: nothing has passed yet, never count up.
  return Math.max(0, left - Math.floor(Math.max(0, now - since.at) / 1000));
}

const STATUS_TONE: Record<TaskView['status'], 'normal' | 'active' | 'success' | 'exception'> = {
  queued: 'normal',
  running: 'active',
  paused: 'normal',
  succeeded: 'success',
  failed: 'exception',
  cancelled: 'normal',
};

/** What a failed task tells the user: its failure code's text (spec §8), else the server's reason. */
export function failureText(task: TaskView): string {
  return t.failureCodes[task.error_code] ?? task.error ?? t.failedRefunded;
}

export interface TaskProgressProps {
  task: TaskView;
  /** After a confirmed cancel succeeded. */
  onCancel?: (task: TaskView) => void;
  /** After cancel, retry or resume changed the task. */
  onChange?: (task: TaskView) => void;
  /** One line for list rows: bar and status, no times or buttons but cancel. */
  compact?: boolean;
}

/**
 * A task's progress (design §9): stage, percent bar, elapsed time and time left, status in
 * Chinese; cancel (asks first) while it runs, retry when it failed or was cancelled, resume when it waits at a
 * pause point. The changed task goes into the cache, so every view of it updates.
 */
export function TaskProgress({ task, onCancel, onChange, compact }: TaskProgressProps) {
  const { message } = useApp();
  const finished = isFinished(task);
  const now = useNow(!finished && task.status !== 'paused');
  const store = (next: TaskView) => {
    setCallData(api.getTask, { query: { task_id: next.task_id } }, { task: next });
    onChange?.(next);
  };
  const cancel = useCallMutation(api.cancelTask, {
    onSuccess: (d) => {
      store(d.task);
      message.success(t.cancelled);
      onCancel?.(d.task);
    },
  });
  const retry = useCallMutation(api.retryTask, {
    onSuccess: (d) => {
      store(d.task);
      message.success(t.retried);
    },
  });
  const resume = useCallMutation(api.resumeTask, {
    onSuccess: (d) => {
      store(d.task);
      message.success(t.resumed);
    },
  });
  const body = { body: { task_id: task.task_id } };
  const percent = Math.max(0, Math.min(100, Math.round(task.progress)));
  const left = useTimeLeft(task, now);
  const stage = stageLabel(task);
  const status = taskStatusNames[task.status];

  const cancelButton = !finished && (
    <Popconfirm
      title={t.cancelTitle}
      description={t.cancelBody}
      okText={t.cancelOk}
      cancelText={t.keepGoing}
      okButtonProps={
        { danger: true, loading: cancel.isPending, 'data-testid': 'task-cancel-confirm' } as never
      }
      onConfirm={() => cancel.mutateAsync(body).catch(() => undefined)}
    >
      <Button size="small" danger={!compact} type={compact ? 'link' : 'default'} data-testid="task-cancel">
        {t.cancel}
      </Button>
    </Popconfirm>
  );

  if (compact)
    return (
      <div className="vw-task-progress compact" data-testid="task-progress" data-status={task.status}>
        <span className="vw-task-status" data-testid="task-status">
          {status}
          {task.status === 'running' && stage ? ` · ${stage}` : ''}
        </span>
        {!finished && (
          <Progress
            percent={percent}
            size="small"
            status={STATUS_TONE[task.status]}
            strokeColor={BRAND}
            data-testid="task-percent"
          />
        )}
      </div>
    );

  return (
    <div className="vw-task-progress" data-testid="task-progress" data-status={task.status}>
      <div className="vw-task-head">
        <strong className="vw-task-status" data-testid="task-status">
          {status}
        </strong>
        {stage && !finished && (
          <span className="vw-task-stage" data-testid="task-stage">
            {t.stage}：{stage}
          </span>
        )}
      </div>
      <Progress
        percent={percent}
        status={STATUS_TONE[task.status]}
        strokeColor={finished ? undefined : BRAND}
        data-testid="task-percent"
      />
      <div className="vw-task-times">
        <span data-testid="task-elapsed">{t.elapsed(formatDuration(elapsedSeconds(task, now)))}</span>
        {task.status === 'running' && (
          <span data-testid="task-remaining">
            {/* Run out while still running: the next update estimates again. */}
            {!left ? t.remainingUnknown : t.remaining(formatDuration(left))}
          </span>
        )}
      </div>
      {task.status === 'failed' && (
        <div className="vw-task-error" role="alert" data-testid="task-error">
          {failureText(task)}
        </div>
      )}
      {task.status === 'paused' && (
        <div className="vw-task-hint" data-testid="task-paused-hint">
          {stage ? t.pausedAfter(stage) : t.pausedHint}
        </div>
      )}
      <div className="vw-task-actions">
        {cancelButton}
        {(task.status === 'failed' || task.status === 'cancelled') && (
          <Button
            size="small"
            loading={retry.isPending}
            onClick={() => retry.mutate(body)}
            data-testid="task-retry"
          >
            {t.retry}
          </Button>
        )}
        {task.status === 'paused' && (
          <Button
            size="small"
            type="primary"
            loading={resume.isPending}
            onClick={() => resume.mutate(body)}
            data-testid="task-resume"
          >
            {t.resume}
          </Button>
        )}
      </div>
    </div>
  );
}
