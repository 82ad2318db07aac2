import {
  ArrowLeftOutlined,
  CaretRightOutlined,
  EditOutlined,
  ExportOutlined,
  HistoryOutlined,
  LockOutlined,
  MergeCellsOutlined,
  PauseOutlined,
  ReloadOutlined,
  ScissorOutlined,
  SoundOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type {
  AudiobookChapter,
  AudiobookCharacter,
  AudiobookParagraph,
  AudiobookWork,
  BookSegment,
  Voice,
} from '@vw/contract';
import {
  Alert,
  Button,
  Checkbox,
  Dropdown,
  Empty,
  Input,
  InputNumber,
  Modal,
  Select,
  Spin,
  Tag,
  Tooltip,
} from 'antd';
import useApp from 'antd/es/app/useApp';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { isFinished, useTask } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useToolAvailability } from '../video-translation/useToolAvailability.ts';
import { ExportDialog } from './ExportDialog.tsx';
import { PronunciationFix, paragraphPlain } from './PronunciationFix.tsx';
import { selectionIn } from './pronunciation.ts';
import './audio-book.css';

const t = zhCN.audioBook.work;

const STATUS_COLOR: Record<AudiobookChapter['status'], string> = {
  pending: 'default',
  partial: 'orange',
  done: 'green',
};

const NARRATOR = '';

function useVoices() {
  const q = useCall(api.getAllVoices, { query: { legacy_voice_skip_disabled: true } }, { staleTime: 60_000 });
  return q.data?.voices ?? [];
}

function voiceOptions(voices: Voice[]) {
  return voices.map((v) => ({
    value: v.voice_id,
    label: `${v.name} · ${v.engine_label}${v.category === 'mine' ? t.myVoice : ''}`,
  }));
}

/** Plays a voice's preview clip in place. */
function PreviewButton({ voice }: { voice: Voice | undefined }) {
  const [audio] = useState(() => (typeof Audio === 'undefined' ? null : new Audio()));
  if (!voice?.preview_url || !audio) return null;
  return (
    <Tooltip title={t.preview}>
      <Button
        size="small"
        type="text"
        icon={<SoundOutlined />}
        onClick={() => {
          audio.src = voice.preview_url;
          void audio.play();
        }}
      />
    </Tooltip>
  );
}

/** Narrator and a voice per character (library and cloned voices), each with a preview. */
function CastingPanel({
  workId,
  narratorVoiceId,
  characters,
  voices,
}: {
  workId: string;
  narratorVoiceId: string;
  characters: AudiobookCharacter[];
  voices: Voice[];
}) {
  const { message } = useApp();
  const cast = useCallMutation(api.audiobookCast, {
    invalidates: [api.audiobookGet, api.audiobookParagraphs],
    onSuccess: (d) =>
      message.success(d.stale_paragraphs ? t.castUpdatedStale(d.stale_paragraphs) : t.castUpdated),
  });
  const options = voiceOptions(voices);
  const byId = new Map(voices.map((v) => [v.voice_id, v]));
  return (
    <aside className="vw-book-cast" data-testid="book-casting">
      <h3>{t.casting}</h3>
      <div className="vw-book-cast-row">
        <span>{t.narrator}</span>
        <Select
          style={{ flex: 1 }}
          size="small"
          value={narratorVoiceId}
          options={options}
          showSearch
          optionFilterProp="label"
          onChange={(v) => cast.mutate({ body: { work_id: workId, narrator_voice_id: v, characters: [] } })}
          data-testid="book-narrator-voice"
        />
        <PreviewButton voice={byId.get(narratorVoiceId)} />
      </div>
      {characters.length === 0 && <p className="vw-book-muted">{t.noCharacters}</p>}
      {characters.map((c) => (
        <div className="vw-book-cast-row" key={c.character_id} data-testid="book-character">
          <Tooltip
            title={t.characterTip(
              c.lines,
              c.gender === 'male' || c.gender === 'female' ? t.genders[c.gender] : t.genders.unknown,
            )}
          >
            <span>{c.name}</span>
          </Tooltip>
          <Select
            style={{ flex: 1 }}
            size="small"
            value={c.voice_id || NARRATOR}
            options={[{ value: NARRATOR, label: t.sameAsNarrator }, ...options]}
            showSearch
            optionFilterProp="label"
            onChange={(v) =>
              cast.mutate({
                body: { work_id: workId, characters: [{ character_id: c.character_id, voice_id: v }] },
              })
            }
            data-testid={`book-voice-${c.name}`}
          />
          <PreviewButton voice={byId.get(c.voice_id || narratorVoiceId)} />
        </div>
      ))}
    </aside>
  );
}

function SegmentText({ segments }: { segments: BookSegment[] }) {
  // Segments have no ids; their position in the paragraph is their identity.
  const keyed = segments.map((s, i) => ({ ...s, key: `${i}:${s.kind}` }));
  return (
    <>
      {keyed.map((s) =>
        s.kind === 'quote' ? (
          <span
            key={s.key}
            className="vw-book-quote"
            title={s.speaker ? t.speaker(s.speaker) : t.speakerUnknown}
          >
            {s.speaker && <Tag color="gold">{s.speaker}</Tag>}
            {s.text}
          </span>
        ) : (
          <span key={s.key}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** A paragraph's segments being edited: each one's speaker (narrator or a character) and text. */
function SegmentsEditor({
  segments,
  characters,
  saving,
  onChange,
  onSave,
  onCancel,
}: {
  segments: BookSegment[];
  characters: AudiobookCharacter[];
  saving: boolean;
  onChange: (segments: BookSegment[]) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const speakerOptions = [
    { value: '', label: t.narrator },
    ...characters.map((c) => ({ value: c.name, label: c.name })),
  ];
  return (
    <div data-testid="book-paragraph-editor">
      {segments.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments have no ids and keep their order
        <div key={i} style={{ display: 'flex', gap: 6, marginBottom: 6 }}>
          <Select
            size="small"
            style={{ width: 110 }}
            value={s.kind === 'quote' ? (s.speaker ?? '') : ''}
            options={speakerOptions}
            onChange={(v) =>
              onChange(
                segments.map((x, j) =>
                  j === i ? { ...x, kind: v ? 'quote' : x.kind, speaker: v || null } : x,
                ),
              )
            }
          />
          <Input.TextArea
            autoSize
            value={s.text}
            onChange={(e) => onChange(segments.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
          />
        </div>
      ))}
      <Button size="small" type="primary" loading={saving} onClick={onSave}>
        {zhCN.audioBook.save}
      </Button>{' '}
      <Button size="small" onClick={onCancel}>
        {zhCN.audioBook.cancel}
      </Button>
    </div>
  );
}

/** A pause before or after a paragraph, in milliseconds. */
function PauseInput({ value, onChange }: { value: number; onChange: (ms: number) => void }) {
  return (
    <InputNumber
      size="small"
      min={0}
      max={10000}
      step={100}
      style={{ width: 80 }}
      value={value}
      onChange={(v) => v !== null && onChange(v)}
    />
  );
}

/** The paragraph's earlier takes; picking one makes it the current audio. */
function TakesMenu({
  paragraph: p,
  onPick,
}: {
  paragraph: AudiobookParagraph;
  onPick: (rev: number) => void;
}) {
  return (
    <Dropdown
      menu={{
        items: p.takes.map((take) => ({
          key: String(take.rev),
          label: t.take(
            take.rev,
            formatDuration(take.duration_ms / 1000),
            take.engine,
            take.rev === p.audio_rev,
          ),
        })),
        onClick: ({ key }) => onPick(Number(key)),
      }}
    >
      <Button size="small" icon={<HistoryOutlined />} data-testid="book-takes">
        {t.takes} {p.takes.length}
      </Button>
    </Dropdown>
  );
}

/** Opens the pronunciation fix for the word selected in the paragraph's text (or typed in the dialog). */
function PronunciationButton({
  workId,
  paragraph,
  textRef,
}: {
  workId: string;
  paragraph: AudiobookParagraph;
  textRef: RefObject<HTMLDivElement | null>;
}) {
  const [fixWord, setFixWord] = useState<string | null>(null);
  /** The selected text of this paragraph (Chinese characters only, as in the spoken text), else ''. */
  const selectedWord = () => {
    const picked = selectionIn(textRef.current).replace(/[^\p{Script=Han}]/gu, '');
    return picked && paragraphPlain(paragraph).includes(picked) ? picked.slice(0, 20) : '';
  };
  return (
    <>
      <Tooltip title={t.pronunciationTip}>
        <Button
          size="small"
          icon={<SoundOutlined />}
          // Keep the text selection when the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => setFixWord(selectedWord())}
          data-testid="book-pron-fix"
        >
          {t.pronunciation}
        </Button>
      </Tooltip>
      {fixWord !== null && (
        <PronunciationFix
          workId={workId}
          paragraph={paragraph}
          initialWord={fixWord}
          onClose={() => setFixWord(null)}
        />
      )}
    </>
  );
}

function ParagraphCard({
  workId,
  p,
  characters,
  voices,
  playing,
  onPlayFrom,
  onSynthesized,
  check,
}: {
  workId: string;
  p: AudiobookParagraph;
  characters: AudiobookCharacter[];
  voices: Voice[];
  playing: boolean;
  onPlayFrom: () => void;
  onSynthesized: (taskId: string) => void;
  check: boolean;
}) {
  const { message } = useApp();
  const [editing, setEditing] = useState<BookSegment[] | null>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const edit = useCallMutation(api.audiobookParagraphEdit, {
    invalidates: [api.audiobookParagraphs, api.audiobookGet],
    onSuccess: () => setEditing(null),
  });
  const regenerate = useCallMutation(api.audiobookSynthesize, {
    onSuccess: (d) => {
      message.success(t.regenerateStarted);
      onSynthesized(d.task_id);
    },
  });
  const split = useCallMutation(api.audiobookChapterEdit, {
    invalidates: [api.audiobookGet, api.audiobookParagraphs],
    onSuccess: () => message.success(t.splitDone),
  });
  const save = (patch: Omit<Parameters<typeof edit.mutate>[0]['body'], 'work_id' | 'paragraph_id'>) =>
    edit.mutate({ body: { work_id: workId, paragraph_id: p.paragraph_id, ...patch } });
  return (
    <div className={`vw-book-paragraph${playing ? ' playing' : ''}`} data-testid="book-paragraph">
      {editing ? (
        <SegmentsEditor
          segments={editing}
          characters={characters}
          saving={edit.isPending}
          onChange={setEditing}
          onSave={() => save({ segments: editing })}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <div className="vw-book-paragraph-text" ref={textRef} data-testid="book-paragraph-text">
          <SegmentText segments={p.segments} />
        </div>
      )}
      <div className="vw-book-paragraph-tools">
        {p.audio_url ? (
          <Button
            size="small"
            icon={<CaretRightOutlined />}
            onClick={onPlayFrom}
            data-testid="book-play-from"
          >
            {t.playFrom}
          </Button>
        ) : (
          <Tag>{t.notSynthesized}</Tag>
        )}
        {p.stale && <Tag color="orange">{t.stale}</Tag>}
        {p.check === 'flagged' && (
          <Tag color="red" title={zhCN.selfCheck.refunded} data-testid="book-check-flagged">
            {t.checkFailed}
          </Tag>
        )}
        {p.check === 'flagged' && p.heard !== undefined && (
          // What the recognizer heard, beside the paragraph, so the user sees what went wrong.
          <span className="vw-book-muted" data-testid="book-check-heard">
            {zhCN.selfCheck.heard(p.heard)}
          </span>
        )}
        {p.audio_url && <span className="vw-book-muted">{formatDuration(p.duration_ms / 1000)}</span>}
        <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(p.segments)}>
          {t.edit}
        </Button>
        <PronunciationButton workId={workId} paragraph={p} textRef={textRef} />
        <Select
          size="small"
          style={{ width: 150 }}
          value={p.voice_id}
          options={[{ value: '', label: t.voiceByCharacter }, ...voiceOptions(voices)]}
          onChange={(v) => save({ voice_id: v })}
          popupMatchSelectWidth={false}
        />
        <Tooltip title={t.pausesTip}>
          <span>
            <PauseInput value={p.pause_before_ms} onChange={(v) => save({ pause_before_ms: v })} />
            {' / '}
            <PauseInput value={p.pause_after_ms} onChange={(v) => save({ pause_after_ms: v })} />
          </span>
        </Tooltip>
        <Button
          size="small"
          icon={<ReloadOutlined />}
          disabled={p.locked}
          loading={regenerate.isPending}
          onClick={() =>
            regenerate.mutate({
              body: { work_id: workId, chapter_ids: [], paragraph_id: p.paragraph_id, check },
            })
          }
          data-testid="book-regenerate"
        >
          {t.regenerate}
        </Button>
        <Button
          size="small"
          icon={p.locked ? <LockOutlined /> : <UnlockOutlined />}
          onClick={() => save({ locked: !p.locked })}
          data-testid="book-lock"
        >
          {p.locked ? t.locked : t.lock}
        </Button>
        {p.takes.length > 1 && <TakesMenu paragraph={p} onPick={(rev) => save({ take_rev: rev })} />}
        <Tooltip title={t.splitTip}>
          <Button
            size="small"
            type="text"
            icon={<ScissorOutlined />}
            onClick={() =>
              split.mutate({ body: { action: 'split', work_id: workId, paragraph_id: p.paragraph_id } })
            }
          />
        </Tooltip>
      </div>
    </div>
  );
}

function ChapterItem({
  workId,
  c,
  active,
  isLast,
  onOpen,
}: {
  workId: string;
  c: AudiobookChapter;
  active: boolean;
  isLast: boolean;
  onOpen: () => void;
}) {
  const edit = useCallMutation(api.audiobookChapterEdit, {
    invalidates: [api.audiobookGet, api.audiobookParagraphs],
  });
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row holding its own buttons cannot be one button
    <div
      role="button"
      tabIndex={0}
      className={`vw-book-chapter${active ? ' active' : ''}`}
      onClick={onOpen}
      onKeyDown={(e) => e.key === 'Enter' && e.target === e.currentTarget && onOpen()}
      data-testid="book-chapter"
    >
      <div className="vw-book-chapter-title">
        <Checkbox
          checked={c.selected}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) =>
            edit.mutate({
              body: {
                action: 'select',
                work_id: workId,
                chapter_ids: [c.chapter_id],
                selected: e.target.checked,
              },
            })
          }
        />
        <span className="vw-book-chapter-name" title={c.title} data-testid="book-chapter-title">
          {c.title}
        </span>
        {/* Front and back matter found at import: marked so the listener's book can leave it out. */}
        {c.kind !== 'chapter' && (
          <Tooltip title={c.kind === 'notes' ? t.notesTip : t.matterTip}>
            <Tag data-testid="book-chapter-kind">{t.matter[c.kind]}</Tag>
          </Tooltip>
        )}
        <Tag color={STATUS_COLOR[c.status]}>{t.status[c.status]}</Tag>
      </div>
      <div className="vw-book-muted">
        {t.chapterStats(c.paragraphs_done, c.paragraphs, c.characters, formatDuration(c.duration_ms / 1000))}
        <Button
          size="small"
          type="link"
          icon={<EditOutlined />}
          onClick={(e) => {
            e.stopPropagation();
            setRenaming(c.title);
          }}
          data-testid="book-chapter-rename"
        />
        {!isLast && (
          <Tooltip title={t.mergeTip}>
            <Button
              size="small"
              type="link"
              icon={<MergeCellsOutlined />}
              onClick={(e) => {
                e.stopPropagation();
                edit.mutate({ body: { action: 'merge', work_id: workId, chapter_id: c.chapter_id } });
              }}
              data-testid="book-chapter-merge"
            />
          </Tooltip>
        )}
      </div>
      {active && <div className="vw-book-muted">{c.preview}</div>}
      <Modal
        title={t.rename}
        open={renaming !== null}
        onCancel={() => setRenaming(null)}
        onOk={() => {
          if (renaming?.trim())
            edit.mutate({
              body: { action: 'rename', work_id: workId, chapter_id: c.chapter_id, title: renaming.trim() },
            });
          setRenaming(null);
        }}
        okText={zhCN.audioBook.save}
        cancelText={zhCN.audioBook.cancel}
      >
        <Input
          value={renaming ?? ''}
          onChange={(e) => setRenaming(e.target.value)}
          data-testid="book-chapter-name"
        />
      </Modal>
    </div>
  );
}

/** Follows the latest synthesis task; reloads the work as paragraphs finish. */
function SynthesisTask({ taskId }: { taskId: string }) {
  const { task } = useTask(taskId);
  const progress = task?.progress;
  const status = task?.status;
  useEffect(() => {
    if (progress === undefined || status === undefined) return;
    void invalidateCall(api.audiobookParagraphs);
    void invalidateCall(api.audiobookGet);
  }, [progress, status]);
  if (!task) return null;
  return (
    <div className="vw-book-task" data-testid="book-task">
      <TaskProgress task={task} />
    </div>
  );
}

/** The work's title and figures, the automatic check, synthesis of the chapter or the book, and export. */
function WorkHeader({
  work: w,
  chapterId,
  running,
  check,
  onCheck,
  canCheck,
  checkOn,
  onStarted,
  onExport,
}: {
  work: AudiobookWork;
  chapterId: string | null;
  running: boolean;
  check: boolean;
  onCheck: (check: boolean) => void;
  canCheck: boolean;
  checkOn: boolean;
  onStarted: (taskId: string) => void;
  onExport: () => void;
}) {
  const navigate = useNavigate();
  const { message } = useApp();
  const availability = useToolAvailability('audiobook');
  const synth = useCallMutation(api.audiobookSynthesize, {
    onSuccess: (d) => {
      onStarted(d.task_id);
      message.success(t.synthStarted(d.paragraphs));
    },
  });
  return (
    <header className="vw-book-top">
      <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/audio-book')} />
      <h2 data-testid="book-work-title">{w.title}</h2>
      <span className="vw-book-muted">
        {t.summary(w.chapters_done, w.chapters_total, formatDuration(w.duration_ms / 1000))}
      </span>
      <Tooltip title={t.attributionTip}>
        <Tag data-testid="book-attribution">{t.speaker(w.attribution)}</Tag>
      </Tooltip>
      {availability.available ? (
        <>
          {canCheck && (
            <Tooltip title={t.checkTip}>
              <Checkbox checked={check} onChange={(e) => onCheck(e.target.checked)} data-testid="book-check">
                {t.check}
              </Checkbox>
            </Tooltip>
          )}
          <Button
            disabled={!chapterId || running}
            loading={synth.isPending}
            onClick={() =>
              chapterId &&
              synth.mutate({ body: { work_id: w.work_id, chapter_ids: [chapterId], check: checkOn } })
            }
            data-testid="book-synth-chapter"
          >
            {t.synthChapter}
          </Button>
          <Button
            type="primary"
            disabled={running}
            loading={synth.isPending}
            onClick={() => synth.mutate({ body: { work_id: w.work_id, chapter_ids: [], check: checkOn } })}
            data-testid="book-synth-all"
          >
            {t.synthAll}
          </Button>
        </>
      ) : (
        <Alert type="warning" showIcon message={availability.reason} />
      )}
      <Button icon={<ExportOutlined />} onClick={onExport} data-testid="book-export">
        {zhCN.audioBook.export}
      </Button>
    </header>
  );
}

/** One player for the chapter: plays from a paragraph on to the end, skipping paragraphs without audio. */
function useChapterPlayer(list: AudiobookParagraph[]) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<number | null>(null);
  const playable = useMemo(() => list.map((p, i) => ({ i, url: p.audio_url })).filter((x) => x.url), [list]);
  useEffect(() => {
    const el = audio.current;
    if (!el || playing === null) return;
    const item = list[playing];
    if (!item?.audio_url) {
      const next = playable.find((x) => x.i > playing);
      setPlaying(next ? next.i : null);
      return;
    }
    el.src = item.audio_url;
    void el.play().catch(() => setPlaying(null));
  }, [playing, list, playable]);
  const playNext = () => {
    const next = playable.find((x) => playing !== null && x.i > playing);
    setPlaying(next ? next.i : null);
  };
  const stop = () => {
    audio.current?.pause();
    setPlaying(null);
  };
  return { audio, playing, setPlaying, playNext, stop };
}

/** /audio-book/work/:id (full screen): chapters, paragraph editor, casting, synthesis and export. */
export function Component() {
  const { id = '' } = useParams();
  // A recognizer configured: each paragraph can be checked by speech to text after it is made.
  const recognizer = useToolAvailability('stt');
  const [check, setCheck] = useState(true);
  const work = useCall(api.audiobookGet, { query: { work_id: id } });
  const voices = useVoices();
  const [chapterId, setChapterId] = useState<string | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const chapters = work.data?.chapters ?? [];
  const current = chapters.find((c) => c.chapter_id === chapterId) ?? chapters[0];
  const paragraphs = useCall(
    api.audiobookParagraphs,
    { query: { work_id: id, chapter_id: current?.chapter_id ?? '' } },
    { enabled: !!current },
  );
  const list = paragraphs.data?.list ?? [];
  const latest = taskId ?? work.data?.work.task_id ?? null;
  const { task } = useTask(latest);
  const running = !!task && !isFinished(task);

  const { audio, playing, setPlaying, playNext, stop } = useChapterPlayer(list);

  if (work.isPending) return <Spin style={{ margin: 48 }} />;
  if (!work.data) return <Empty description={t.notFound} style={{ margin: 48 }} />;
  const { work: w, characters } = work.data;
  return (
    <div className="vw-book-work" data-testid="book-work-page">
      <WorkHeader
        work={w}
        chapterId={current?.chapter_id ?? null}
        running={running}
        check={check}
        onCheck={setCheck}
        canCheck={recognizer.available && !recognizer.loading}
        checkOn={check && recognizer.available}
        onStarted={setTaskId}
        onExport={() => setExporting(true)}
      />
      {/* Keyed: a short task can be over before its id arrives here (its events came first), so a new
          id must reload even when its state equals the previous task's. */}
      {latest && <SynthesisTask key={latest} taskId={latest} />}
      <div className="vw-book-body">
        <nav className="vw-book-chapters" data-testid="book-chapters">
          {chapters.map((c, i) => (
            <ChapterItem
              key={c.chapter_id}
              workId={id}
              c={c}
              active={c.chapter_id === current?.chapter_id}
              isLast={i === chapters.length - 1}
              onOpen={() => {
                setChapterId(c.chapter_id);
                setPlaying(null);
              }}
            />
          ))}
        </nav>
        <main className="vw-book-paragraphs" data-testid="book-paragraphs">
          {/* biome-ignore lint/a11y/useMediaCaption: read-aloud audio of the text shown beside it */}
          <audio ref={audio} onEnded={playNext} />
          {playing !== null && (
            <Button size="small" icon={<PauseOutlined />} onClick={stop} style={{ marginBottom: 8 }}>
              {t.stopPlaying}
            </Button>
          )}
          {paragraphs.isPending && <Spin />}
          {list.map((p, i) => (
            <ParagraphCard
              key={p.paragraph_id}
              workId={id}
              p={p}
              characters={characters}
              voices={voices}
              playing={playing === i}
              onPlayFrom={() => setPlaying(i)}
              onSynthesized={setTaskId}
              check={check && recognizer.available}
            />
          ))}
        </main>
        <CastingPanel
          workId={id}
          narratorVoiceId={w.narrator_voice_id}
          characters={characters}
          voices={voices}
        />
      </div>
      <ExportDialog workId={id} open={exporting} onClose={() => setExporting(false)} />
    </div>
  );
}
