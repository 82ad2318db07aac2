import { DownloadOutlined } from '@ant-design/icons';
import type { HistoryItem } from '@vw/contract';
import { lazy, memo, type RefObject, Suspense, useEffect, useState } from 'react';
import { MenuButton } from '@/components/ui/MenuButton.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { AudioPlayer } from './AudioPlayer.tsx';
import { canDownload, type DownloadKind, queueDownloads } from './downloads.ts';
import { Progress } from './lazyProgress.ts';
import type { Generation } from './store.ts';

const t = zhCN.tts;
// The sentence list (with its regenerate popover) only shows once a result has several sentences.
const SentenceList = lazy(() => import('./SentenceList.tsx'));
const Player = memo(AudioPlayer);

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

/** The result card: progress of a long text, the player, and the sentences following playback. */
export function TtsResult({
  gen,
  audioRef,
  onRegenerate,
}: {
  gen: Generation;
  audioRef: RefObject<HTMLAudioElement | null>;
  onRegenerate: (index: number, text: string | undefined) => Promise<void>;
}) {
  // The playback time lives here: its ticks re-render the result, not the page.
  const [time, setTime] = useState(0);
  useEffect(() => {
    const a = audioRef.current;
    if (!a) return;
    const on = () => setTime(a.currentTime);
    a.addEventListener('timeupdate', on);
    return () => a.removeEventListener('timeupdate', on);
  });
  const sentences = gen.item?.sentences ?? [];
  const activeIdx = sentences.findIndex((x) => time * 1000 >= x.start_ms && time * 1000 < x.end_ms);
  return (
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
            <Progress percent={Math.round(gen.progress)} strokeColor={{ from: '#6366f1', to: '#8b5cf6' }} />
          </Suspense>
          <div className="vw-card-hint">{t.longTextHint}</div>
        </div>
      )}
      {gen.phase === 'failed' && <div className="vw-tts-error">{gen.error}</div>}
      <Player src={gen.src} bytes={gen.bytes} autoPlay={gen.phase === 'streaming'} audioRef={audioRef} />
      {!gen.src && gen.phase !== 'task' && <p className="vw-tts-result-empty">{t.playerEmpty}</p>}
      {gen.phase === 'done' && gen.item?.self_check && (
        <p className="vw-card-hint vw-tts-self-check" data-testid="tts-self-check">
          {gen.item.self_check.ran ? zhCN.selfCheck.summary(gen.item.self_check) : zhCN.selfCheck.notRun}
        </p>
      )}
      {(sentences.length > 1 || sentences.some((x) => x.check?.status === 'flagged')) && (
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
            onRegenerate={onRegenerate}
          />
        </Suspense>
      )}
    </section>
  );
}
