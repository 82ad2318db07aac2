import { SoundOutlined } from '@ant-design/icons';
import type { HistoryItem } from '@vw/contract';
import useApp from 'antd/es/app/useApp';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { isLocked } from '@/features/voices/model.ts';
import { usePreviewStore } from '@/features/voices/preview.ts';
import { api } from '@/lib/api.ts';
import { loadTenantBonus } from '@/lib/auth/session.ts';
import { request } from '@/lib/http/client.ts';
import { ttsMaxChars } from '@/lib/tts.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useCatalogueStore } from '@/stores/data.ts';
import { useUserStore } from '@/stores/user.ts';
import { waitForDefaultVoice } from './defaultVoice.ts';
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
import { idleGeneration, useTtsStore } from './store.ts';
import { TextEditor } from './TextEditor.tsx';
import { TtsResult } from './TtsResult.tsx';
import { TtsSettings } from './TtsSettings.tsx';
import '@/features/voices/voices.css';
import './tts.css';

const t = zhCN.tts;

// The page re-renders on every keystroke, every progress tick and every startup data arrival:
// its heavy children re-render only when their own props change.
const Editor = memo(TextEditor);
const History = memo(HistoryPanel);

/** A callback with a stable identity that always runs the latest render's function. */
function useStableCallback<A extends unknown[]>(fn: (...args: A) => void) {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}

/** A voice from the library (?voice_id=) or, when none is chosen, the default one (polled every 50 ms). */
function useInitialVoice(level: number) {
  const [params, setParams] = useSearchParams();
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
}

/**
 * Generation: a short text streams, a long one runs as a task followed until it ends (again after coming
 * back to the page: the id is in the store); a finished item can be shown, reopened from the history or
 * have one sentence made again.
 */
function useSynthesis(stopPreview: () => void) {
  const { message } = useApp();
  const { gen, setGen, setDraft, setSettings } = useTtsStore();
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);
  const finished = () => {
    useTtsStore.getState().bumpHistory();
    void loadTenantBonus();
  };

  const showItem = async (item: HistoryItem, play = false) => {
    const full = (await fetchItem(item.history_id).catch(() => null)) ?? item;
    setGen({ ...idleGeneration, phase: 'done', item: full, src: full.audio_url || null });
    if (play) requestAnimationFrame(() => void audioRef.current?.play().catch(() => undefined));
    if (full.audio_url) {
      const bytes = await fetchBytes(full.audio_url);
      setGen((g) => (g.item?.history_id === full.history_id ? { bytes } : {}));
    }
  };

  const generate = async (body: Parameters<typeof startSynthesis>[0]) => {
    abortRef.current?.abort();
    const ctl = new AbortController();
    abortRef.current = ctl;
    stopPreview();
    setGen({ ...idleGeneration, phase: 'streaming' });
    try {
      const start = await startSynthesis(body, ctl.signal);
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
      finished();
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return;
      // The general error handling has already shown the message (credit prompt included).
      setGen({ phase: 'idle' });
      useTtsStore.getState().bumpHistory();
    }
  };

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
    finished();
  });

  const regenerateSentence = async (index: number, text: string | undefined) => {
    const item = gen.item;
    if (!item) return;
    const d = await request(api.ttsRegenerateSentence, {
      body: { history_id: item.history_id, sentence_index: index, ...(text ? { text } : {}) },
    });
    message.success(t.sentenceRegenerated);
    const full = d.item.sentences ? d.item : ((await fetchItem(d.item.history_id)) ?? d.item);
    if (text) setDraft(fromMarkup(full.text));
    setGen({ ...idleGeneration, phase: 'done', item: full, src: full.audio_url || null });
    if (full.audio_url) {
      const bytes = await fetchBytes(full.audio_url);
      setGen({ bytes });
    }
    finished();
  };

  const openHistory = (item: HistoryItem) => {
    abortRef.current?.abort();
    setGen({ taskId: null });
    setDraft(fromMarkup(item.text));
    setSettings({
      voiceId: item.voice_id,
      modelId: item.model_id,
      speed: item.speed,
      pitch: item.pitch,
      volume: item.volume,
    });
    void showItem(item);
  };

  return { gen, audioRef, generate, regenerateSentence, openHistory };
}

/** Route /tts: text to speech (spec §2). */
export function Component() {
  const { message } = useApp();
  const s = useTtsStore();
  const voices = useCatalogueStore((c) => c.voices);
  const models = useCatalogueStore((c) => c.models);
  const level = useUserStore((u) => u.tenantBonus.level);
  const stopPreview = usePreviewStore((p) => p.stop);
  useEffect(() => () => stopPreview(), [stopPreview]);
  const { gen, audioRef, generate, regenerateSentence, openHistory } = useSynthesis(stopPreview);

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
  useInitialVoice(level);

  // The model follows the voice when the current one does not fit it.
  useEffect(() => {
    if (!voice) return;
    if (!voice.model_ids.includes(s.modelId)) s.setSettings({ modelId: voice.model_ids[0] ?? '' });
  }, [voice, s.modelId, s.setSettings]);

  const onGenerate = () => {
    if (!s.draft.text.trim()) return void message.warning(t.emptyText);
    if (!s.voiceId) return void message.warning(t.noVoice);
    if (count > maxChars) return void message.warning(t.overLimit(maxChars.toLocaleString('zh-CN')));
    void generate({
      text: toMarkup(s.draft),
      voice_id: s.voiceId,
      model_id: model?.model_id,
      speed: s.speed,
      pitch: s.pitch,
      volume: s.volume,
      format: 'mp3',
      mode: 'auto',
    });
  };
  const onOpenHistory = useStableCallback(openHistory);
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
          <TtsResult gen={gen} audioRef={audioRef} onRegenerate={regenerateSentence} />
          <History onOpen={onOpenHistory} />
        </div>

        <aside className="vw-tts-side">
          <TtsSettings
            model={model}
            voiceModels={voiceModels}
            busy={busy}
            canGenerate={!!s.draft.text.trim() && !!s.voiceId && count <= maxChars && !lockedVoice}
            onGenerate={onGenerate}
          />
        </aside>
      </div>
    </div>
  );
}
