import { SettingOutlined, SyncOutlined, TranslationOutlined } from '@ant-design/icons';
import type { TaskView } from '@vw/contract';
import { Alert, Button, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useEditor } from '../editor/context.tsx';
import { useProjectTask } from '../editor/projectTask.ts';
import type { LineTools } from './CueTranslation.tsx';
import { flaggedCount, languagesLabel } from './model.ts';
import { PreferencesDrawer } from './PreferencesDrawer.tsx';

const vt = zhCN.videoTranslate;

/** 重新翻译 / 重新配音 / 回译校对 of one line: saves first, then a task of the project that the workspace follows. */
export function useLineTools(projectId: string, flush: () => Promise<boolean>, dub: boolean): LineTools {
  const { running, remember } = useProjectTask(projectId);
  const onSuccess = (r: { task_id: string }) => remember(r.task_id);
  const retranslate = useCallMutation(api.videoTranslationRetranslate, { onSuccess });
  const redub = useCallMutation(api.videoTranslationRedub, { onSuccess });
  const back = useCallMutation(api.videoTranslationBackTranslate, { onSuccess });
  const busy = running || retranslate.isPending || redub.isPending || back.isPending;
  const { mutate: mRetranslate } = retranslate;
  const { mutate: mRedub } = redub;
  const { mutate: mBack } = back;
  return useMemo(
    () => ({
      busy,
      dub,
      retranslate: async (cueId: string) => {
        if (await flush()) mRetranslate({ body: { project_id: projectId, cue_ids: [cueId] } });
      },
      redub: async (cueId: string) => {
        if (await flush()) mRedub({ body: { project_id: projectId, scope: 'line', cue_id: cueId } });
      },
      backTranslate: async (cueId: string) => {
        if (await flush()) mBack({ body: { project_id: projectId, cue_ids: [cueId] } });
      },
    }),
    [busy, dub, flush, mRetranslate, mRedub, mBack, projectId],
  );
}

/**
 * The editor's translation panel: what translated (the model, or manual), languages, the video's
 * summary, drifting lines, 重新翻译全部 / 重新回译校对, the preferences and glossary drawer, and the
 * progress of the project's task when the dubbing panel is not there to show it.
 */
export function TranslationPanel({
  projectId,
  flush,
  showTask,
}: {
  projectId: string;
  flush: () => Promise<boolean>;
  showTask: boolean;
}) {
  const { state, cues } = useEditor();
  const settings = state.doc!.translation!;
  const langs = useCall(api.videoTranslationLanguages, undefined, { staleTime: 60_000, suppressError: true });
  const { task, running, remember } = useProjectTask(projectId);
  const onSuccess = (r: { task_id: string }) => remember(r.task_id);
  const retranslate = useCallMutation(api.videoTranslationRetranslate, { onSuccess });
  const backTranslate = useCallMutation(api.videoTranslationBackTranslate, { onSuccess });
  const [drawer, setDrawer] = useState(false);
  const busy = running || retranslate.isPending || backTranslate.isPending;
  const flagged = flaggedCount(cues);
  const names = [...(langs.data?.source ?? []), ...(langs.data?.target ?? [])];
  const manual = langs.data ? !langs.data.llm.configured : false;

  return (
    <section className="vw-ed-dub vw-ed-tr" aria-label={vt.panel} data-testid="translation-panel">
      <div className="vw-ed-tr-meta">
        <strong>{vt.panel}</strong>
        <span className="vw-ed-muted">
          {languagesLabel(settings.source_language, settings.target_language, names)}
        </span>
        {settings.model && (
          <Tag title={vt.model} data-testid="translation-model">
            {settings.model}
          </Tag>
        )}
        {flagged > 0 && (
          <Tag color="orange" data-testid="translation-flagged">
            {vt.flaggedCount(flagged)}
          </Tag>
        )}
      </div>
      {manual && <Alert type="info" showIcon message={vt.manual} data-testid="translation-manual" />}
      {settings.summary && (
        <Typography.Paragraph
          className="vw-ed-tr-summary"
          ellipsis={{ rows: 1, expandable: true, symbol: vt.summaryExpand }}
          title={vt.summary}
        >
          {settings.summary}
        </Typography.Paragraph>
      )}
      <Space wrap size={6}>
        <Button
          size="small"
          icon={<TranslationOutlined />}
          disabled={busy || manual}
          onClick={async () => {
            if (await flush()) retranslate.mutate({ body: { project_id: projectId } });
          }}
          data-testid="translation-retranslate-all"
        >
          {vt.retranslateAll}
        </Button>
        <Button
          size="small"
          icon={<SyncOutlined />}
          disabled={busy || manual}
          onClick={async () => {
            if (await flush()) backTranslate.mutate({ body: { project_id: projectId } });
          }}
          data-testid="translation-back-all"
        >
          {vt.backTranslateAll}
        </Button>
        <Button
          size="small"
          icon={<SettingOutlined />}
          onClick={() => setDrawer(true)}
          data-testid="translation-prefs"
        >
          {vt.preferences}
        </Button>
      </Space>
      {showTask && task && (
        <div className="vw-ed-dub-task" data-testid="translation-task">
          <TaskProgress task={task as TaskView} compact={task.status !== 'failed'} />
        </div>
      )}
      <PreferencesDrawer open={drawer} onClose={() => setDrawer(false)} />
    </section>
  );
}

/**
 * The banner of a translation paused for review (after recognition or after translation): check the
 * lines, then 确认并继续 (saved first) resumes the task, which the workspace follows.
 */
export function ReviewBanner({
  projectId,
  taskId,
  flush,
}: {
  projectId: string;
  taskId: string | null;
  flush: () => Promise<boolean>;
}) {
  const { task } = useTask(taskId);
  const langs = useCall(api.videoTranslationLanguages, undefined, { staleTime: 60_000, suppressError: true });
  const { remember } = useProjectTask(projectId);
  const resume = useCallMutation(api.videoTranslationContinue, { onSuccess: (r) => remember(r.task_id) });
  if (task?.status !== 'paused' || resume.isSuccess) return null;
  const point = vt.pausePoints[task.pause_point ?? ''] ?? task.pause_point ?? '';
  // Without a language model the task waits here for the translation typed in the editor.
  const manual = task.pause_point === 'recognition' && langs.data?.llm.configured === false;
  return (
    <Alert
      banner
      type="warning"
      data-testid="translation-paused"
      message={manual ? vt.pausedManual : vt.paused(point)}
      action={
        <Button
          size="small"
          type="primary"
          loading={resume.isPending}
          onClick={async () => {
            if (await flush()) resume.mutate({ body: { project_id: projectId } });
          }}
          data-testid="translation-continue"
        >
          {vt.continue}
        </Button>
      }
    />
  );
}
