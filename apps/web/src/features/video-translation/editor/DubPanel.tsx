import { CaretRightOutlined, LockOutlined, ReloadOutlined, UnlockOutlined } from '@ant-design/icons';
import type { TaskView } from '@vw/contract';
import type { CueTake, SubtitleCue } from '@vw/contract/calls/projects.ts';
import { Button, Segmented, Space, Tag, Tooltip } from 'antd';
import { api } from '@/lib/api.ts';
import { useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { TaskOutputs } from '../dubbing/TaskOutputs.tsx';
import { VoiceSelect } from '../dubbing/VoiceSelect.tsx';
import { useEditor } from './context.tsx';
import {
  acceptSpoken,
  chosenTake,
  fitText,
  isStale,
  pickTake,
  setCueVoice,
  setDefaultVoice,
  setLocked,
  setSpeakerVoice,
  spokenText,
  staleCount,
} from './dub.ts';
import { useProjectTask } from './projectTask.ts';
import { FlaggedLines, percent } from './SpokenNote.tsx';

const d = zhCN.dubbing;

export type HearMode = 'original' | 'dub' | 'mix';

const FIT_COLORS: Record<string, string> = { fits: 'green', tight: 'gold', overflow: 'red', unfit: 'red' };

/**
 * The editor's dubbing panel (issue 17): what plays (original / dub / mix), casting (a voice per
 * speaker from the whole library, with preview), 生成过期音频 and render, and for the selected line
 * its fit meter, one-click fixes, takes, voice and lock. Document edits go through autosave; the
 * generation runs as a task of the project (`projectTask.ts`), after which the workspace reloads it.
 */
export function DubPanel({
  projectId,
  hear,
  onHear,
  hasMix,
  takeUrls,
  flush,
}: {
  projectId: string;
  hear: HearMode;
  onHear: (m: HearMode) => void;
  hasMix: boolean;
  takeUrls: Record<string, string>;
  flush: () => Promise<boolean>;
}) {
  const { state, cues } = useEditor();
  const doc = state.doc!;
  const { task, running, remember } = useProjectTask(projectId);
  // A translation project dubs its translation through the video translation calls (same scopes).
  const onStarted = { onSuccess: (r: { task_id: string }) => remember(r.task_id) };
  const regenerateDub = useCallMutation(api.dubbingRegenerate, onStarted);
  const redubTranslation = useCallMutation(api.videoTranslationRedub, onStarted);
  const regenerate = doc.translation ? redubTranslation : regenerateDub;

  const start: StartDub = async (body) => {
    if (!(await flush())) return;
    regenerate.mutate({
      body: { project_id: projectId, ...body } as Parameters<typeof regenerateDub.mutate>[0]['body'],
    });
  };

  const stale = staleCount(doc);
  const busy = running || regenerate.isPending;

  return (
    <section className="vw-ed-dub" aria-label={d.panel} data-testid="dub-panel">
      <div className="vw-ed-panel-title">
        <span>{d.panel}</span>
        <Segmented
          size="small"
          value={hear}
          onChange={(v) => onHear(v as HearMode)}
          options={(['original', 'dub', 'mix'] as const).map((k) => ({
            value: k,
            label: d.hearModes[k],
            disabled: k !== 'original' && !hasMix,
          }))}
          data-testid="dub-hear"
        />
      </div>
      <Space wrap className="vw-ed-dub-actions">
        <Button
          size="small"
          type="primary"
          icon={<ReloadOutlined />}
          disabled={stale === 0 || busy}
          onClick={() => void start({ scope: 'stale' })}
          data-testid="dub-regenerate-stale"
        >
          {d.regenerateStale(stale)}
        </Button>
        <Button
          size="small"
          disabled={busy}
          onClick={() => void start({ scope: 'render' })}
          data-testid="dub-render"
        >
          {d.render}
        </Button>
      </Space>
      {task && (
        <div className="vw-ed-dub-task" data-testid="dub-task">
          <TaskProgress task={task as TaskView} compact={task.status !== 'failed'} />
          <TaskOutputs task={task as TaskView} />
        </div>
      )}
      <FlaggedLines cues={cues} />
      <DubCasting />
      <div className="vw-ed-dub-line" data-testid="dub-line">
        <div className="vw-ed-dub-sub">{d.line}</div>
        <SelectedLine busy={busy} start={start} takeUrls={takeUrls} />
      </div>
    </section>
  );
}

/** Starts a generation of the project's dub: the stale lines, one line (with a fix), or the render. */
type StartDub = (body: {
  scope: 'stale' | 'line' | 'render' | 'all';
  cue_id?: string;
  fix?: string;
}) => Promise<void>;

/** A voice per speaker, and the default for lines without one. */
function DubCasting() {
  const { state, current, edit } = useEditor();
  const doc = state.doc!;
  return (
    <div className="vw-ed-dub-cast" data-testid="dub-casting">
      <div className="vw-ed-dub-sub">{d.casting}</div>
      <div className="vw-ed-dub-castrow">
        <span>{d.defaultVoice}</span>
        <VoiceSelect
          size="small"
          width={170}
          value={doc.dub?.default_voice_id ?? ''}
          onChange={(v) => v && edit(setDefaultVoice(current().doc!, v))}
        />
      </div>
      {doc.speakers.map((sp) => (
        <div className="vw-ed-dub-castrow" key={sp.id} data-testid="dub-cast-speaker">
          <span>{sp.name}</span>
          <VoiceSelect
            size="small"
            width={170}
            value={sp.voice_id ?? ''}
            allowEmpty
            emptyLabel={d.defaultVoice}
            onChange={(v) => edit(setSpeakerVoice(current().doc!, sp.id, v))}
          />
        </div>
      ))}
    </div>
  );
}

/** The selected line: its fit and lock, what it really says, fixes, its voice and its takes. */
function SelectedLine({
  busy,
  start,
  takeUrls,
}: {
  busy: boolean;
  start: StartDub;
  takeUrls: Record<string, string>;
}) {
  const { state, cues, current, edit } = useEditor();
  const doc = state.doc!;
  const selected = cues.find((c) => c.id === state.selected[0]);
  if (!selected) return <div className="vw-ed-muted">{d.noLine}</div>;
  if (selected.mark) return <Tag>{selected.mark === 'mute' ? d.muted : d.kept}</Tag>;
  const take = chosenTake(selected);
  const fixes = doc.dub?.media_asset_id
    ? (['shorten', 'borrow_gap', 'speed', 'slow_video'] as const)
    : (['shorten', 'borrow_gap', 'speed'] as const);
  return (
    <>
      <div className="vw-ed-dub-fit">
        {take && selected.fit ? (
          <Tag color={FIT_COLORS[selected.fit.status]} data-testid="dub-fit-status">
            {fitText(selected.fit)}
          </Tag>
        ) : (
          <Tag>{d.noAudio}</Tag>
        )}
        {isStale(doc, selected) && take && <Tag color="orange">{d.stale}</Tag>}
        <Tooltip title={selected.locked ? d.unlock : d.lock}>
          <Button
            size="small"
            type="text"
            icon={selected.locked ? <LockOutlined /> : <UnlockOutlined />}
            aria-label={selected.locked ? d.unlock : d.lock}
            onClick={() => edit(setLocked(current().doc!, selected.id, !selected.locked))}
            data-testid="dub-lock"
          />
        </Tooltip>
      </div>
      {selected.fit && (
        <div className="vw-ed-dub-summary" data-testid="dub-fit-summary">
          {selected.fit.summary}
          {selected.fit.reason ? `（${selected.fit.reason}）` : ''}
        </div>
      )}
      {take && <SpokenLine cue={selected} take={take} busy={busy} start={start} />}
      <Space wrap size={4}>
        <Button
          size="small"
          disabled={busy}
          onClick={() => void start({ scope: 'line', cue_id: selected.id })}
          data-testid="dub-regenerate-line"
        >
          {d.regenerateLine}
        </Button>
        {fixes.map((fix) => (
          <Button
            key={fix}
            size="small"
            disabled={busy}
            onClick={() => void start({ scope: 'line', cue_id: selected.id, fix })}
            data-testid={`dub-fix-${fix}`}
            title={fix === 'slow_video' ? d.slowVideoHint : undefined}
          >
            {d.fixNames[fix]}
          </Button>
        ))}
      </Space>
      <div className="vw-ed-dub-castrow">
        <span>{d.lineVoice}</span>
        <VoiceSelect
          size="small"
          width={170}
          value={selected.voice_id ?? ''}
          allowEmpty
          emptyLabel={d.speakerVoice}
          onChange={(v) => edit(setCueVoice(current().doc!, selected.id, v))}
        />
      </div>
      <LineTakes cue={selected} chosen={take} takeUrls={takeUrls} />
    </>
  );
}

/** The shortened text a line's take says instead of its subtitle: keep the original, or accept it. */
function SpokenLine({
  cue,
  take,
  busy,
  start,
}: {
  cue: SubtitleCue;
  take: CueTake;
  busy: boolean;
  start: StartDub;
}) {
  const { current, edit } = useEditor();
  const spoken = spokenText(cue);
  if (spoken === null) return null;
  return (
    <div className="vw-ed-dub-spoken" data-testid="dub-spoken">
      <div className="vw-ed-dub-sub">
        {d.spoken}
        {take.fit.kept !== undefined ? ` · ${d.spokenKept(percent(take.fit.kept))}` : ''}
      </div>
      <div className="vw-ed-dub-spoken-text">{spoken}</div>
      <Space wrap size={4}>
        <Button
          size="small"
          disabled={busy}
          title={d.keepTextHint}
          onClick={() => void start({ scope: 'line', cue_id: cue.id, fix: 'keep_text' })}
          data-testid="dub-keep-text"
        >
          {d.keepText}
        </Button>
        {take.accepted ? (
          <Tag color="blue">{d.accepted}</Tag>
        ) : (
          <Button
            size="small"
            onClick={() => edit(acceptSpoken(current().doc!, cue.id))}
            data-testid="dub-accept-spoken"
          >
            {d.acceptSpoken}
          </Button>
        )}
      </Space>
    </div>
  );
}

/** A line's takes, newest first: hear one, use one. */
function LineTakes({
  cue,
  chosen,
  takeUrls,
}: {
  cue: SubtitleCue;
  chosen: CueTake | undefined;
  takeUrls: Record<string, string>;
}) {
  const { current, edit } = useEditor();
  if ((cue.takes?.length ?? 0) === 0) return null;
  return (
    <ol className="vw-ed-dub-takes" data-testid="dub-takes">
      {[...(cue.takes ?? [])].reverse().map((t) => (
        <li key={t.id} data-testid="dub-take">
          <Button
            size="small"
            type="text"
            icon={<CaretRightOutlined />}
            aria-label={d.hear}
            disabled={!takeUrls[t.id]}
            onClick={() => void new Audio(takeUrls[t.id]).play().catch(() => {})}
          />
          <span className="vw-ed-dub-take-text" title={t.text}>
            {t.text}
          </span>
          <Tag color={FIT_COLORS[t.fit.status]}>{fitText(t.fit)}</Tag>
          {t.id === chosen?.id ? (
            <Tag color="blue">{d.inUse}</Tag>
          ) : (
            <Button
              size="small"
              onClick={() => edit(pickTake(current().doc!, cue.id, t.id))}
              data-testid="dub-take-use"
            >
              {d.use}
            </Button>
          )}
        </li>
      ))}
    </ol>
  );
}
