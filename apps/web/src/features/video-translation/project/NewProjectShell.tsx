import type { TaskView } from '@vw/contract';
import type { CreditTool } from '@vw/contract/constants/credits.ts';
import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import type { ToolAvailabilityView } from '../useToolAvailability.ts';
import { editorPath } from './useToolProject.ts';

/**
 * The frame of every "new project" flow: why the tool cannot run (when it cannot), the flow's steps,
 * and the footer with the estimate, 返回列表 and the start button. Test ids are `${prefix}-…`.
 */
export function NewProjectShell({
  prefix,
  testId = `${prefix}-new`,
  availability,
  header,
  estimate,
  onBack,
  start,
  reasonInFooter = false,
  children,
}: {
  prefix: string;
  testId?: string;
  availability: ToolAvailabilityView;
  /** Above the notice (a switch between the tool's modes). */
  header?: ReactNode;
  estimate: ReactNode;
  onBack: () => void;
  start: { label: string; disabled: boolean; loading: boolean; onClick: () => void };
  /** Name the reason in place of the start button too (else the button is only left out). */
  reasonInFooter?: boolean;
  children: ReactNode;
}) {
  const off = !availability.available;
  return (
    <div className="vw-vt-new" data-testid={testId}>
      {header}
      {off && (
        <Alert type="warning" showIcon message={availability.reason} data-testid={`${prefix}-unavailable`} />
      )}
      {children}
      <section className="vw-vt-step vw-vt-footer">
        {estimate}
        <div className="vw-vt-actions">
          <Button onClick={onBack}>{zhCN.videoTools.back}</Button>
          {!off ? (
            <Button
              type="primary"
              disabled={start.disabled}
              loading={start.loading}
              onClick={start.onClick}
              data-testid={`${prefix}-start`}
            >
              {start.label}
            </Button>
          ) : (
            reasonInFooter && (
              <span className="vw-vt-error" data-testid={`${prefix}-reason`}>
                {availability.reason}
              </span>
            )
          )}
        </div>
      </section>
    </div>
  );
}

/** The cost of `seconds` priced as `tool`, against the balance (loaded while `enabled`). */
export function useCreditEstimate(tool: CreditTool, seconds: number | null, enabled = true) {
  return useCall(
    api.estimateCredits,
    { body: { task_type: tool, params: { seconds: seconds ?? 0 } } },
    { enabled: enabled && seconds != null, suppressError: true, staleTime: 0 },
  );
}

export interface EstimateText {
  label: string;
  credits: (credits: string) => string;
  balance: (balance: string) => string;
  insufficient: string;
  /** Shown while the first answer loads (nothing when absent). */
  estimating?: string;
}

/**
 * 预计消耗 with the credits, the balance and a shortage; `detail` follows the credits, `children` the
 * whole. Test ids: `${testId}-credits`, and `balanceId` / `insufficientId` when given.
 */
export function CreditEstimate({
  testId,
  shown,
  data,
  fetching = false,
  text,
  balanceId,
  insufficientId,
  detail,
  children,
}: {
  testId: string;
  shown: boolean;
  data: { credits: number; balance: number; sufficient: boolean } | undefined;
  fetching?: boolean;
  text: EstimateText;
  balanceId?: string;
  insufficientId?: string;
  detail?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="vw-vt-estimate" data-testid={testId}>
      {shown && (
        <>
          <span>{text.label}</span>
          {data ? (
            <>
              <strong data-testid={`${testId}-credits`}>{text.credits(formatCredits(data.credits))}</strong>
              {detail}
              <span className="vw-vt-muted" data-testid={balanceId}>
                {text.balance(formatCredits(data.balance))}
              </span>
              {!data.sufficient && (
                <span className="vw-vt-error" data-testid={insufficientId}>
                  {text.insufficient}
                </span>
              )}
            </>
          ) : (
            text.estimating !== undefined && (
              <span className="vw-vt-muted">{fetching ? text.estimating : ''}</span>
            )
          )}
        </>
      )}
      {children}
    </div>
  );
}

/**
 * A started task: its live progress, what the flow adds for it (`extra`), then 打开编辑器 (with a
 * project, once `canOpen`) and the way back to a new one.
 */
export function StartedTask({
  prefix,
  taskId,
  projectId,
  labels,
  onAnother,
  canOpen = (task) => task.status === 'succeeded',
  extra,
}: {
  prefix: string;
  taskId: string;
  projectId?: string;
  labels: { open?: string; another: string };
  onAnother?: () => void;
  canOpen?: (task: TaskView) => boolean;
  extra?: (task: TaskView) => ReactNode;
}) {
  const navigate = useNavigate();
  const { task } = useTask(taskId);
  const open = !!projectId && !!task && canOpen(task);
  return (
    <div className="vw-vt-started" data-testid={`${prefix}-started`}>
      {task && <TaskProgress task={task} />}
      {task && extra?.(task)}
      {(open || onAnother) && (
        <div className="vw-vt-actions">
          {open && (
            <Button
              type="primary"
              onClick={() => navigate(editorPath(projectId))}
              data-testid={`${prefix}-open-editor`}
            >
              {labels.open}
            </Button>
          )}
          {onAnother && (
            <Button onClick={onAnother} data-testid={`${prefix}-another`}>
              {labels.another}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
