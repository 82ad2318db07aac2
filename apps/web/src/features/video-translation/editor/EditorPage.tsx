import {
  ArrowLeftOutlined,
  CloudDownloadOutlined,
  DownloadOutlined,
  QuestionCircleOutlined,
  RedoOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import type { MediaPeaks } from '@vw/contract/calls/media.ts';
import { namedErrorMessage } from '@vw/contract/errors.ts';
import { Alert, Button, ConfigProvider, Popover, Result, Spin, Tag, Tooltip, Typography, theme } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { downloadProgress, useDownloadStore } from '@/stores/download.ts';
import { d } from '../dubbing/strings.ts';
import { videoTranslate as vt } from '@/locales/zh-CN/videoTranslate.ts';
import { ReviewBanner, TranslationPanel, useLineTools } from '../translate/TranslationPanel.tsx';
import { CueList } from './CueList.tsx';
import { EditorProvider, useEditorController } from './context.tsx';
import { DubPanel, type HearMode } from './DubPanel.tsx';
import { ExportDialog } from './ExportDialog.tsx';
import { type ProjectData, usePeaks, useProject, useRenameProject, useSaveProject } from './editorApi.ts';
import { FindBar } from './FindBar.tsx';
import { Player } from './Player.tsx';
import { useFollowProjectTask } from './projectTask.ts';
import { RulesDialog } from './RulesDialog.tsx';
import { SpeakersPanel } from './SpeakersPanel.tsx';
import { s } from './strings.ts';
import { Timeline } from './Timeline.tsx';
import { type SaveFn, useAutosave } from './useAutosave.ts';
import { useShortcuts } from './useShortcuts.ts';
import './editor.css';

/** The tab a project's tool lives in (the way back from the editor). */
const TOOL_TABS: Record<string, string> = {
  translate: 'translate',
  stt: 'stt',
  srt_dubbing: 'srt-dubbing',
  dubbing: 'dubbing',
  synthesis: 'synthesis',
};

const darkTheme = {
  algorithm: theme.darkAlgorithm,
  token: { colorBgContainer: '#1f2330', colorBgElevated: '#262b3a', borderRadius: 6 },
};

/** /video-translation/editor?id= — loads the project, then the workspace (remounted on reload). */
export function EditorPage({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  let body: React.ReactNode;
  if (!projectId) body = <Result status="warning" title={s.noId} />;
  else if (project.isPending) body = <Spin size="large" tip={s.loading} fullscreen />;
  else if (project.isError) {
    body = (
      <Result
        status="error"
        title={s.loadFailed}
        subTitle={project.error.message}
        extra={<Button onClick={() => void project.refetch()}>{s.retry}</Button>}
      />
    );
  } else {
    body = (
      <EditorWorkspace
        key={project.dataUpdatedAt}
        data={project.data}
        onReload={() => void project.refetch()}
        reloading={project.isFetching}
      />
    );
  }
  return (
    <ConfigProvider theme={darkTheme}>
      <div className="vw-ed" data-testid="video-editor">
        {body}
      </div>
    </ConfigProvider>
  );
}

/** The editor over one loaded project: header, player, speakers, cue list, timeline. */
export function EditorWorkspace({
  data,
  onReload,
  reloading = false,
  save,
  peaks: peaksOverride,
}: {
  data: ProjectData;
  onReload: () => void;
  reloading?: boolean;
  /** Tests pass their own. */
  save?: SaveFn;
  peaks?: MediaPeaks | null;
}) {
  const projectId = data.project.project_id;
  const durationMs = data.media?.duration_ms ?? data.project.duration_ms ?? null;
  const editor = useEditorController({ initial: data.document, durationMs });
  const saveProject = useSaveProject(projectId);
  const renameProject = useRenameProject(projectId);
  const autosave = useAutosave(editor, data.version, save ?? saveProject);
  const peaksQuery = usePeaks(
    peaksOverride === undefined && data.media?.status === 'ready' ? data.media.asset_id : null,
  );
  const peaks = peaksOverride ?? peaksQuery.data ?? null;
  const navigate = useNavigate();
  const [name, setName] = useState(data.project.name);
  const [findKey, setFindKey] = useState(-1);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const { state, dispatch } = editor;
  // Dubbing projects: the dub track and mix for the player, take links for the takes list.
  const isDub = !!data.document.dub;
  const dubMedia = useCall(
    api.dubbingMedia,
    { query: { project_id: projectId } },
    { enabled: isDub, staleTime: 30 * 60_000, suppressError: true },
  );
  const [hear, setHear] = useState<HearMode>(data.media ? 'original' : 'dub');
  const audioSrc =
    hear === 'dub' ? dubMedia.data?.dub_url || null : hear === 'mix' ? dubMedia.data?.mix_url || null : null;

  // The task this editor started (regenerate, re-translate, render): reload the project when it ends.
  const { notify } = editor;
  const isTranslation = !!data.document.translation;
  const onTaskEnd = useCallback(
    (status: string) => {
      if (status === 'succeeded') notify(isTranslation ? vt.taskDone : d.taskDone, 'success');
      onReload();
    },
    [notify, onReload, isTranslation],
  );
  useFollowProjectTask(projectId, onTaskEnd);
  const lineTools = useLineTools(projectId, autosave.flush, isDub);

  const openFind = () => setFindKey((k) => Math.max(0, k + 1));
  useShortcuts(editor, { save: () => void autosave.flush(), find: openFind });

  const { modal } = useApp();
  const back = async () => {
    const leave = () => {
      const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
      if (idx > 0) navigate(-1);
      else navigate(`/video-translation/${TOOL_TABS[data.project.tool] ?? ''}`);
    };
    // Save what is pending first; if that cannot be done, ask before dropping it.
    if (await autosave.flush()) leave();
    else modal.confirm({ title: s.leaveUnsaved, okText: s.back, cancelText: s.cancel, onOk: leave });
  };
  // Recognition heard another language than the one asked for (kept on the source track).
  const languageNotice = data.document.tracks.find((t) => t.kind === 'source')?.language_notice;
  const busy =
    data.project.status === 'queued' ||
    data.project.status === 'running' ||
    (data.project.status === 'paused' && !isTranslation);

  const onRename = async (next: string) => {
    const clean = next.trim();
    if (!clean || clean === name) return;
    try {
      const r = await renameProject(clean);
      setName(r.project.name);
      editor.notify(s.renamed, 'success');
    } catch {
      // shown by the http client
    }
  };

  const statusText = {
    saved: s.saved,
    saving: s.saving,
    unsaved: s.unsaved,
    error: s.saveFailed,
    conflict: s.conflict,
  }[autosave.status];

  return (
    <EditorProvider editor={editor}>
      <header className="vw-ed-header">
        <Tooltip title={s.back}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={s.back} onClick={() => void back()} />
        </Tooltip>
        <Typography.Text
          className="vw-ed-name"
          data-testid="project-name"
          editable={{ onChange: (v) => void onRename(v), tooltip: '重命名', maxLength: 100 }}
        >
          {name || s.untitled}
        </Typography.Text>
        {data.project.engine_label && (
          <Tag className="vw-ed-engine" title={s.engine}>
            {data.project.engine_label}
          </Tag>
        )}
        <span className={`vw-ed-save is-${autosave.status}`} data-testid="save-status" aria-live="polite">
          {statusText}
        </span>
        <span className="vw-ed-spacer" />
        <Tooltip title={`${s.undo}（Ctrl+Z）`}>
          <Button
            type="text"
            icon={<UndoOutlined />}
            aria-label={s.undo}
            disabled={state.past.length === 0}
            onClick={() => dispatch({ type: 'undo' })}
          />
        </Tooltip>
        <Tooltip title={`${s.redo}（Ctrl+Shift+Z）`}>
          <Button
            type="text"
            icon={<RedoOutlined />}
            aria-label={s.redo}
            disabled={state.future.length === 0}
            onClick={() => dispatch({ type: 'redo' })}
          />
        </Tooltip>
        <Button type="text" icon={<SearchOutlined />} onClick={openFind}>
          {s.find}
        </Button>
        <Button type="text" icon={<SafetyCertificateOutlined />} onClick={() => setRulesOpen(true)}>
          {s.rules}
        </Button>
        <Popover
          trigger="click"
          title={s.shortcuts}
          content={
            <table className="vw-ed-keys">
              <tbody>
                {s.shortcutList.map(([k, v]) => (
                  <tr key={k}>
                    <td>
                      <kbd>{k}</kbd>
                    </td>
                    <td>{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        >
          <Button type="text" icon={<QuestionCircleOutlined />} aria-label={s.shortcuts} />
        </Popover>
        <DownloadsButton />
        <Button type="primary" icon={<DownloadOutlined />} onClick={() => setExportOpen(true)}>
          {s.export}
        </Button>
      </header>
      {busy && (
        <Alert
          banner
          type="info"
          message={s.taskRunning(Math.round(data.project.progress))}
          action={
            <Button size="small" loading={reloading} onClick={onReload}>
              {s.reload}
            </Button>
          }
        />
      )}
      {isTranslation && data.project.status === 'paused' && (
        <ReviewBanner projectId={projectId} taskId={data.project.task_id} flush={autosave.flush} />
      )}
      {languageNotice && (
        <Alert banner type="warning" message={languageNotice} data-testid="language-notice" />
      )}
      {data.media?.status === 'processing' && !peaks && (
        <Alert banner type="info" message={s.mediaProcessing} />
      )}
      {autosave.status === 'conflict' && (
        <Alert
          banner
          type="error"
          data-testid="conflict-alert"
          message={namedErrorMessage('err_project_version_conflict')}
          description={s.conflictText}
          action={
            <Button size="small" danger loading={reloading} onClick={onReload}>
              {s.reload}
            </Button>
          }
        />
      )}
      <main className="vw-ed-main">
        <div className="vw-ed-left">
          <Player
            media={data.media}
            audioSrc={audioSrc ?? (data.media ? null : dubMedia.data?.mix_url || null)}
          />
          {isTranslation && state.doc && (
            <TranslationPanel projectId={projectId} flush={autosave.flush} showTask={!isDub} />
          )}
          {isDub && state.doc && (
            <DubPanel
              projectId={projectId}
              hear={hear}
              onHear={setHear}
              hasMix={!!dubMedia.data?.mix_url}
              takeUrls={dubMedia.data?.takes ?? {}}
              flush={autosave.flush}
            />
          )}
          <SpeakersPanel />
        </div>
        <div className="vw-ed-right">
          {findKey >= 0 && <FindBar focusKey={findKey} onClose={() => setFindKey(-1)} />}
          <CueList lineTools={isTranslation ? lineTools : undefined} />
        </div>
      </main>
      <Timeline peaks={peaks} />
      <RulesDialog open={rulesOpen} onClose={() => setRulesOpen(false)} />
      <ExportDialog
        open={exportOpen}
        projectId={projectId}
        projectName={name}
        onClose={() => setExportOpen(false)}
        beforeExport={autosave.flush}
        notify={editor.notify}
        translation={isTranslation ? { dub: isDub, hasMix: !!dubMedia.data?.mix_url } : undefined}
      />
    </EditorProvider>
  );
}

/** The download list entry (the sidebar's is not on this full-screen page): completed/total, opens the panel. */
function DownloadsButton() {
  const tasks = useDownloadStore((st) => st.tasks);
  const panelOpen = useDownloadStore((st) => st.panelOpen);
  const setPanelOpen = useDownloadStore((st) => st.setPanelOpen);
  if (tasks.length === 0) return null;
  const { completed, total } = downloadProgress(tasks);
  return (
    <Button
      type="text"
      icon={<CloudDownloadOutlined />}
      data-testid="editor-download-entry"
      onClick={() => setPanelOpen(!panelOpen)}
    >
      {s.downloads} {completed}/{total}
    </Button>
  );
}
