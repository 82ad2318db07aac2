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
import { zhCN } from '@/locales/zh-CN.ts';
import { downloadProgress, useDownloadStore } from '@/stores/download.ts';
import { ReviewBanner, TranslationPanel, useLineTools } from '../translate/TranslationPanel.tsx';
import { CueList } from './CueList.tsx';
import { type Editor, EditorProvider, useEditor, useEditorController } from './context.tsx';
import { useCueColumns } from './cueColumns.tsx';
import { DubPanel, type HearMode } from './DubPanel.tsx';
import { ExportDialog } from './ExportDialog.tsx';
import { type ProjectData, usePeaks, useProject, useRenameProject, useSaveProject } from './editorApi.ts';
import { FindBar } from './FindBar.tsx';
import { Player } from './Player.tsx';
import { useFollowProjectTask } from './projectTask.ts';
import { RulesDialog } from './RulesDialog.tsx';
import { SpeakersPanel } from './SpeakersPanel.tsx';
import { Timeline } from './Timeline.tsx';
import { type SaveFn, useAutosave } from './useAutosave.ts';
import { useShortcuts } from './useShortcuts.ts';
import './editor.css';

const vt = zhCN.videoTranslate;

const s = zhCN.editor;
const d = zhCN.dubbing;

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
  const autosave = useAutosave(editor, data.version, save ?? saveProject);
  const peaksQuery = usePeaks(
    peaksOverride === undefined && data.media?.status === 'ready' ? data.media.asset_id : null,
  );
  const peaks = peaksOverride ?? peaksQuery.data ?? null;
  const [name, rename] = useProjectName(projectId, data.project.name, editor.notify);
  const [findKey, setFindKey] = useState(-1);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const isDub = !!data.document.dub;
  const isTranslation = !!data.document.translation;
  const dub = useDubTrack(projectId, isDub, !!data.media);

  // The task this editor started (regenerate, re-translate, render): reload the project when it ends.
  const { notify } = editor;
  const onTaskEnd = useCallback(
    (status: string) => {
      if (status === 'succeeded') notify(isTranslation ? vt.taskDone : d.taskDone, 'success');
      onReload();
    },
    [notify, onReload, isTranslation],
  );
  useFollowProjectTask(projectId, onTaskEnd);
  const lineTools = useLineTools(projectId, autosave.flush, isDub);
  const cueColumns = useCueColumns(editor.state.doc, isTranslation ? lineTools : undefined);

  const openFind = () => setFindKey((k) => Math.max(0, k + 1));
  useShortcuts(editor, { save: () => void autosave.flush(), find: openFind });
  const back = useBack(autosave.flush, data.project.tool);

  return (
    <EditorProvider editor={editor}>
      <EditorHeader
        name={name}
        engineLabel={data.project.engine_label}
        saveStatus={autosave.status}
        onBack={back}
        onRename={rename}
        onFind={openFind}
        onRules={() => setRulesOpen(true)}
        onExport={() => setExportOpen(true)}
      />
      <EditorBanners
        data={data}
        reloading={reloading}
        onReload={onReload}
        flush={autosave.flush}
        conflict={autosave.status === 'conflict'}
        waitingPeaks={data.media?.status === 'processing' && !peaks}
      />
      <main className="vw-ed-main">
        <div className="vw-ed-left">
          <Player media={data.media} audioSrc={dub.audioSrc} />
          {isTranslation && editor.state.doc && (
            <TranslationPanel projectId={projectId} flush={autosave.flush} showTask={!isDub} />
          )}
          {isDub && editor.state.doc && (
            <DubPanel
              projectId={projectId}
              hear={dub.hear}
              onHear={dub.setHear}
              hasMix={dub.hasMix}
              takeUrls={dub.takeUrls}
              flush={autosave.flush}
            />
          )}
          <SpeakersPanel />
        </div>
        <div className="vw-ed-right">
          {findKey >= 0 && <FindBar focusKey={findKey} onClose={() => setFindKey(-1)} />}
          <CueList layout={cueColumns} />
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
        translation={isTranslation ? { dub: isDub, hasMix: dub.hasMix } : undefined}
      />
    </EditorProvider>
  );
}

/** The project's name, renamed on the server (a blank or unchanged name is ignored). */
function useProjectName(projectId: string, initial: string, notify: Editor['notify']) {
  const renameProject = useRenameProject(projectId);
  const [name, setName] = useState(initial);
  const rename = async (next: string) => {
    const clean = next.trim();
    if (!clean || clean === name) return;
    try {
      const r = await renameProject(clean);
      setName(r.project.name);
      notify(s.renamed, 'success');
    } catch {
      // shown by the http client
    }
  };
  return [name, rename] as const;
}

/** Dubbing projects: what the player hears (the dub track or the mix instead of the media's sound), take links. */
function useDubTrack(projectId: string, isDub: boolean, hasMedia: boolean) {
  const dubMedia = useCall(
    api.dubbingMedia,
    { query: { project_id: projectId } },
    { enabled: isDub, staleTime: 30 * 60_000, suppressError: true },
  );
  const [hear, setHear] = useState<HearMode>(hasMedia ? 'original' : 'dub');
  const mixUrl = dubMedia.data?.mix_url || null;
  const heard = hear === 'dub' ? dubMedia.data?.dub_url || null : hear === 'mix' ? mixUrl : null;
  return {
    hear,
    setHear,
    // Without media of its own the project plays its mix.
    audioSrc: heard ?? (hasMedia ? null : mixUrl),
    hasMix: !!mixUrl,
    takeUrls: dubMedia.data?.takes ?? {},
  };
}

/** Back to where the user came from (or the tool's tab), saving what is pending first. */
function useBack(flush: () => Promise<boolean>, tool: string) {
  const navigate = useNavigate();
  const { modal } = useApp();
  return async () => {
    const leave = () => {
      const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
      if (idx > 0) navigate(-1);
      else navigate(`/video-translation/${TOOL_TABS[tool] ?? ''}`);
    };
    // If the pending edits cannot be saved, ask before dropping them.
    if (await flush()) leave();
    else modal.confirm({ title: s.leaveUnsaved, okText: s.back, cancelText: s.cancel, onOk: leave });
  };
}

/** The header: back, the name (renamed in place), save status, undo / redo, find, rules, shortcuts, export. */
function EditorHeader({
  name,
  engineLabel,
  saveStatus,
  onBack,
  onRename,
  onFind,
  onRules,
  onExport,
}: {
  name: string;
  engineLabel?: string;
  saveStatus: ReturnType<typeof useAutosave>['status'];
  onBack: () => Promise<void>;
  onRename: (name: string) => Promise<void>;
  onFind: () => void;
  onRules: () => void;
  onExport: () => void;
}) {
  const { state, dispatch } = useEditor();
  const statusText = {
    saved: s.saved,
    saving: s.saving,
    unsaved: s.unsaved,
    error: s.saveFailed,
    conflict: s.conflict,
  }[saveStatus];
  return (
    <header className="vw-ed-header">
      <Tooltip title={s.back}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={s.back} onClick={() => void onBack()} />
      </Tooltip>
      <Typography.Text
        className="vw-ed-name"
        data-testid="project-name"
        editable={{ onChange: (v) => void onRename(v), tooltip: s.rename, maxLength: 100 }}
      >
        {name || s.untitled}
      </Typography.Text>
      {engineLabel && (
        <Tag className="vw-ed-engine" title={s.engine}>
          {engineLabel}
        </Tag>
      )}
      <span className={`vw-ed-save is-${saveStatus}`} data-testid="save-status" aria-live="polite">
        {statusText}
      </span>
      <span className="vw-ed-spacer" />
      <Tooltip title={s.undoTip}>
        <Button
          type="text"
          icon={<UndoOutlined />}
          aria-label={s.undo}
          disabled={state.past.length === 0}
          onClick={() => dispatch({ type: 'undo' })}
        />
      </Tooltip>
      <Tooltip title={s.redoTip}>
        <Button
          type="text"
          icon={<RedoOutlined />}
          aria-label={s.redo}
          disabled={state.future.length === 0}
          onClick={() => dispatch({ type: 'redo' })}
        />
      </Tooltip>
      <Button type="text" icon={<SearchOutlined />} onClick={onFind}>
        {s.find}
      </Button>
      <Button type="text" icon={<SafetyCertificateOutlined />} onClick={onRules}>
        {s.rules}
      </Button>
      <ShortcutsButton />
      <DownloadsButton />
      <Button type="primary" icon={<DownloadOutlined />} onClick={onExport}>
        {s.export}
      </Button>
    </header>
  );
}

/** The keyboard shortcuts, listed in a popover. */
function ShortcutsButton() {
  return (
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
  );
}

/** Banners under the header: a task still running, the review pause, a language notice, media processing, a save conflict. */
function EditorBanners({
  data,
  reloading,
  onReload,
  flush,
  conflict,
  waitingPeaks,
}: {
  data: ProjectData;
  reloading: boolean;
  onReload: () => void;
  flush: () => Promise<boolean>;
  conflict: boolean;
  waitingPeaks: boolean;
}) {
  const { project, document } = data;
  const isTranslation = !!document.translation;
  const busy =
    project.status === 'queued' ||
    project.status === 'running' ||
    (project.status === 'paused' && !isTranslation);
  // Recognition heard another language than the one asked for (kept on the source track).
  const languageNotice = document.tracks.find((t) => t.kind === 'source')?.language_notice;
  return (
    <>
      {busy && (
        <Alert
          banner
          type="info"
          message={s.taskRunning(Math.round(project.progress))}
          action={
            <Button size="small" loading={reloading} onClick={onReload}>
              {s.reload}
            </Button>
          }
        />
      )}
      {isTranslation && project.status === 'paused' && (
        <ReviewBanner projectId={project.project_id} taskId={project.task_id} flush={flush} />
      )}
      {languageNotice && (
        <Alert banner type="warning" message={languageNotice} data-testid="language-notice" />
      )}
      {waitingPeaks && <Alert banner type="info" message={s.mediaProcessing} />}
      {conflict && (
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
    </>
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
