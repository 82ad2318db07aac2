import { DownloadOutlined, SoundOutlined, ThunderboltFilled, UndoOutlined } from '@ant-design/icons';
import type { HistoryItem } from '@vw/contract';
import useApp from 'antd/es/app/useApp';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/Button.tsx';
import { MenuButton } from '@/components/ui/MenuButton.tsx';
import { Select } from '@/components/ui/Select.tsx';
import { isLocked } from '@/features/voices/model.ts';
import { usePreviewStore } from '@/features/voices/preview.ts';
import { api } from '@/lib/api.ts';
import { loadTenantBonus } from '@/lib/auth/session.ts';
import { request } from '@/lib/http/client.ts';
import { ttsMaxChars } from '@/lib/tts.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useCatalogueStore } from '@/stores/data.ts';
import { useUserStore } from '@/stores/user.ts';
import { AudioPlayer } from './AudioPlayer.tsx';
import { waitForDefaultVoice } from './defaultVoice.ts';
import { canDownload, type DownloadKind, queueDownloads } from './downloads.ts';
import { draftChars, fromMarkup, toMarkup } from './draft.ts';
import {
  fetchBytes,
  fetchFinishedItem,
  fetchItem,
  readAudioStream,
  startSynthesis,
  taskEnded,
  useSynthesisTask,
} from './generate.ts';
import { HistoryPanel } from './HistoryPanel.tsx';
import { Progress } from './lazyProgress.ts';
import { LevelSlider, SpeedSlider } from './SpeedSlider.tsx';
import { DEFAULT_SETTINGS, idleGeneration, useTtsStore } from './store.ts';
import { TextEditor } from './TextEditor.tsx';
import { VoicePicker } from './VoicePicker.tsx';
import '@/features/voices/voices.css';
import './tts.css';

const t = zhCN.tts;
// The sentence list (with its regenerate popover) only shows once a result has several sentences.
const SentenceList = lazy(() => import('./SentenceList.tsx'));

// The page re-renders on every keystroke, every progress tick and every startup data arrival:
// its heavy children re-render only when their own props change.
const Editor = memo(TextEditor);
const History = memo(HistoryPanel);
const Picker = memo(VoicePicker);
const Player = memo(AudioPlayer);
const Speed = memo(SpeedSlider);
const Level = memo(LevelSlider);

/** A callback with a stable identity that always runs the latest render's function. */
function useStableCallback<A extends unknown[]>(fn: (...args: A) => void) {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}

function DownloadButton({ item }: { item: HistoryItem | null }) {
  const kinds: { key: DownloadKind; label: string }[] = [
    { key: 'mp3', label: t.downloadMp3 },
    { key: 'wav', label: t.downloadWav },
    { key: 'srt', label: t.downloadSrt },
  ];
  return (
    <MenuButton
      disabled={item?.status !== 'succeeded'}
      items={kinds.map((k) => ({
        ...k,
        testId: `download-${k.key}`,
        disabled: !item || !canDownload(item, k.key),
      }))}
      onSelect={(kind) => item && queueDownloads([{ item, kind }])}
      icon={<DownloadOutlined />}
      data-testid="download"
    >
      {t.download}
    </MenuButton>
  );
}

/** Route /tts: text to speech (spec §2). */
export function Component() {
  const { message } = useApp();
  const [params, setParams] = useSearchParams();
  const s = useTtsStore();
  const { gen, setGen } = s;
  const voices = useCatalogueStore((c) => c.voices);
  const models = useCatalogueStore((c) => c.models);
  const level = useUserStore((u) => u.tenantBonus.level);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [time, setTime] = useState(0);
  const modelLabelId = useId();

  const voice = voices.find((v) => v.voice_id === s.voiceId);
  const voiceModels = useMemo(
    () => (voice ? models.filter((m) => voice.model_ids.includes(m.model_id)) : models),
    [voice, models],
  );
  const model = models.find((m) => m.model_id === s.modelId) ?? voiceModels[0];
  const maxChars = model?.max_text_length || ttsMaxChars(level);
  const count = draftChars(s.draft);
  const uid = useUserStore((u) => u.userInfo?.uid ?? '');
  useLayoutEffect(() => {
    if (uid) useTtsStore.getState().openDraft(uid);
  }, [uid]);
  const busy = gen.phase === 'streaming' || gen.phase === 'task';

  // A voice from the library (?voice_id=) or, when none is chosen, the default one (polled every 50 ms).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per arrival
  useEffect(() => {
    const fromQuery = params.get('voice_id');
    if (fromQuery) {
      useTtsStore.getState().selectVoice(fromQuery);
      params.delete('voice_id');
      setParams(params, { replace: true });
      return;
    }
    if (useTtsStore.getState().voiceId) return;
    const ctl = new AbortController();
    void waitForDefaultVoice('tts', level, ctl.signal).then((id) => {
      if (id && !useTtsStore.getState().voiceId) useTtsStore.getState().selectVoice(id);
    });
    return () => ctl.abort();
  }, []);

  // The model follows the voice when the current one does not fit it.
  useEffect(() => {
    if (!voice) return;
    if (!voice.model_ids.includes(s.modelId)) s.setSettings({ modelId: voice.model_ids[0] ?? '' });
  }, [voice, s.modelId, s.setSettings]);

  const stopPreview = usePreviewStore((p) => p.stop);
  useEffect(() => () => stopPreview(), [stopPreview]);
  useEffect(() => () => abortRef.current?.abort(), []);

  const showItem = async (item: HistoryItem, play = false) => {
    const full = (await fetchItem(item.history_id).catch(() => null)) ?? item;
    setGen({ ...idleGeneration, phase: 'done', item: full, src: full.audio_url || null });
    if (play) requestAnimationFrame(() => void audioRef.current?.play().catch(() => undefined));
    if (full.audio_url) {
      const bytes = await fetchBytes(full.audio_url);
      setGen((g) => (g.item?.history_id === full.history_id ? { bytes } : {}));
    }
  };

  const generate = async () => {
    if (!s.draft.text.trim()) return void message.warning(t.emptyText);
    if (!s.voiceId) return void message.warning(t.noVoice);
    if (count > maxChars) return void message.warning(t.overLimit(maxChars.toLocaleString('zh-CN')));
    abortRef.current?.abort();
    const ctl = new AbortController();
    abortRef.current = ctl;
    stopPreview();
    setGen({ ...idleGeneration, phase: 'streaming' });
    try {
      const start = await startSynthesis(
        {
          text: toMarkup(s.draft),
          voice_id: s.voiceId,
          model_id: model?.model_id,
          speed: s.speed,
          pitch: s.pitch,
          volume: s.volume,
          format: 'mp3',
          mode: 'auto',
        },
        ctl.signal,
      );
      setGen({ cacheHit: start.cacheHit, credits: start.credits });
      if (start.kind === 'stream') {
        const { bytes } = await readAudioStream(start, (url) => setGen({ src: url }));
        if (ctl.signal.aborted) return;
        setGen({ bytes, phase: 'done' });
        const item = await fetchFinishedItem(start.historyId);
        if (item) setGen({ item });
      } else {
        if (ctl.signal.aborted) return;
        // Followed by useSynthesisTask below until it ends.
        setGen({ phase: 'task', taskId: start.taskId });
      }
      useTtsStore.getState().bumpHistory();
      void loadTenantBonus();
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return;
      // The general error handling has already shown the message (credit prompt included).
      setGen({ phase: 'idle' });
      useTtsStore.getState().bumpHistory();
    }
  };

  // A long text's task, until it ends (again after coming back to the page: the id is in the store).
  useSynthesisTask(gen.taskId, (p) => {
    setGen({ progress: p.progress, sentencesDone: p.done, sentencesTotal: p.total });
    if (!taskEnded(p.status)) return;
    setGen({ taskId: null });
    if (p.status === 'failed') {
      const text = (p.failureCode && t.failedCode[p.failureCode]) || p.error || t.failed;
      setGen({ phase: 'failed', error: text });
      message.error(text);
    } else {
      message.success(t.done);
      void showItem(p.item, true);
    }
    useTtsStore.getState().bumpHistory();
    void loadTenantBonus();
  });

  const regenerateSentence = async (index: number, text: string | undefined) => {
    const item = gen.item;
    if (!item) return;
    const d = await request(api.ttsRegenerateSentence, {
      body: { history_id: item.history_id, sentence_index: index, ...(text ? { text } : {}) },
    });
    message.success(t.sentenceRegenerated);
    const full = d.item.sentences ? d.item : ((await fetchItem(d.item.history_id)) ?? d.item);
    if (text) s.setDraft(fromMarkup(full.text));
    setGen({ ...idleGeneration, phase: 'done', item: full, src: full.audio_url || null });
    if (full.audio_url) {
      const bytes = await fetchBytes(full.audio_url);
      setGen({ bytes });
    }
    useTtsStore.getState().bumpHistory();
    void loadTenantBonus();
  };

  const openHistory = (item: HistoryItem) => {
    abortRef.current?.abort();
    setGen({ taskId: null });
    s.setDraft(fromMarkup(item.text));
    s.setSettings({
      voiceId: item.voice_id,
      modelId: item.model_id,
      speed: item.speed,
      pitch: item.pitch,
      volume: item.volume,
    });
    void showItem(item);
  };

  const onOpenHistory = useStableCallback(openHistory);
  const { setSettings } = s;
  const setSpeed = useCallback((speed: number) => setSettings({ speed }), [setSettings]);
  const setVolume = useCallback((volume: number) => setSettings({ volume }), [setSettings]);
  const setPitch = useCallback((pitch: number) => setSettings({ pitch }), [setSettings]);

  const sentences = gen.item?.sentences ?? [];
  const activeIdx = sentences.findIndex((x) => time * 1000 >= x.start_ms && time * 1000 < x.end_ms);
  useEffect(() => {
    const a = audioRef.current;
    if (!a) return;
    const on = () => setTime(a.currentTime);
    a.addEventListener('timeupdate', on);
    return () => a.removeEventListener('timeupdate', on);
  });

  const lockedVoice = voice ? isLocked(voice, level) : false;

  return (
    <div className="vw-page vw-tts-page" data-testid="tts-page">
      <header className="vw-page-header">
        <h1>
          <SoundOutlined className="vw-title-icon" /> {zhCN.features.tts.name}
        </h1>
        <p>{t.subtitle}</p>
      </header>
      <div className="vw-tts-layout">
        <div className="vw-tts-main">
          <section className="vw-card vw-tts-editor-card">
            <Editor
              draft={s.draft}
              onChange={s.setDraft}
              maxChars={maxChars}
              disabled={busy}
              canPause={model?.capabilities.pauses ?? true}
              canCorrect={model?.capabilities.dictionary ?? true}
            />
          </section>

          <section className="vw-card vw-tts-result" data-testid="tts-result" data-phase={gen.phase}>
            <div className="vw-card-head">
              <h2>{gen.item?.name || t.resultTitle}</h2>
              <div className="vw-tts-result-actions">
                {gen.phase === 'done' && gen.cacheHit && <span className="vw-card-hint">{t.cached}</span>}
                <DownloadButton item={gen.item} />
              </div>
            </div>
            {gen.phase === 'task' && (
              <div className="vw-tts-progress" data-testid="tts-progress">
                <div className="vw-tts-progress-label">
                  {gen.sentencesTotal > 0 ? t.progress(gen.sentencesDone, gen.sentencesTotal) : t.queued}
                </div>
                <Suspense fallback={null}>
                  <Progress
                    percent={Math.round(gen.progress)}
                    strokeColor={{ from: '#6366f1', to: '#8b5cf6' }}
                  />
                </Suspense>
                <div className="vw-card-hint">{t.longTextHint}</div>
              </div>
            )}
            {gen.phase === 'failed' && <div className="vw-tts-error">{gen.error}</div>}
            <Player
              src={gen.src}
              bytes={gen.bytes}
              autoPlay={gen.phase === 'streaming'}
              audioRef={audioRef}
            />
            {!gen.src && gen.phase !== 'task' && <p className="vw-tts-result-empty">{t.playerEmpty}</p>}
            {sentences.length > 1 && (
              <Suspense fallback={null}>
                <SentenceList
                  key={gen.item?.history_id}
                  sentences={sentences}
                  activeIndex={sentences[activeIdx]?.index}
                  onSeek={(x) => {
                    const a = audioRef.current;
                    if (a) {
                      a.currentTime = x.start_ms / 1000;
                      void a.play().catch(() => undefined);
                    }
                  }}
                  onRegenerate={regenerateSentence}
                />
              </Suspense>
            )}
          </section>

          <History onOpen={onOpenHistory} />
        </div>

        <aside className="vw-tts-side">
          <section className="vw-card vw-tts-settings" data-testid="tts-settings">
            <div className="vw-tts-field">
              <div className="vw-tts-label">{t.voice}</div>
              <Picker value={s.voiceId} onChange={s.selectVoice} />
            </div>
            <div className="vw-tts-field">
              <div className="vw-tts-label" id={modelLabelId}>
                {t.model}
              </div>
              <Select
                value={model?.model_id}
                onChange={(v) => s.setSettings({ modelId: v })}
                options={voiceModels.map((m) => ({ value: m.model_id, label: m.name }))}
                aria-labelledby={modelLabelId}
                data-testid="model-select"
              />
              <div className="vw-tts-model-desc">{model?.description}</div>
            </div>
            <div className="vw-tts-field">
              <div className="vw-tts-label-row">
                <span className="vw-tts-label">{t.settings}</span>
                <Button
                  type="link"
                  size="small"
                  icon={<UndoOutlined />}
                  onClick={() => s.setSettings(DEFAULT_SETTINGS)}
                >
                  {t.resetSettings}
                </Button>
              </div>
              <Speed value={s.speed} onChange={setSpeed} />
              <Level
                label={t.volume}
                value={s.volume}
                min={-20}
                max={10}
                unit={t.dB}
                onChange={setVolume}
                testId="volume-slider"
              />
              {(model?.capabilities.pitch ?? true) && (
                <Level
                  label={t.pitch}
                  value={s.pitch}
                  min={-12}
                  max={12}
                  unit={t.semitones}
                  onChange={setPitch}
                  testId="pitch-slider"
                />
              )}
            </div>
            <Button
              type="primary"
              size="large"
              block
              icon={<ThunderboltFilled />}
              loading={busy}
              disabled={!s.draft.text.trim() || !s.voiceId || count > maxChars || lockedVoice}
              onClick={() => void generate()}
              className="vw-tts-generate"
              data-testid="generate"
            >
              {busy ? t.generating : t.generate}
            </Button>
          </section>
        </aside>
      </div>
    </div>
  );
}
