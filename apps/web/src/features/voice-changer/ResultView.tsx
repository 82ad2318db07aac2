import { DownloadOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Spin, Tag } from 'antd';
import { useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { WaveformPlayer } from './WaveformPlayer.tsx';

const t = zhCN.voiceChanger;

/**
 * Original and converted audio side by side with waveforms; A/B switches which one plays, at the
 * same position. Downloads use the signed links with the file names of the task.
 */
export function ResultView({ taskId }: { taskId: string }) {
  const result = useCall(api.voiceChangerResult, { query: { task_id: taskId } }, { staleTime: 30 * 60_000 });
  const a = useRef<HTMLAudioElement | null>(null);
  const b = useRef<HTMLAudioElement | null>(null);
  const [active, setActive] = useState<'a' | 'b'>('b');
  if (!result.data) return <Spin />;
  const r = result.data;
  const swap = () => {
    const [from, to] = active === 'a' ? [a.current, b.current] : [b.current, a.current];
    if (!from || !to) return;
    const playing = !from.paused;
    to.currentTime = Math.min(from.currentTime, to.duration || from.currentTime);
    from.pause();
    if (playing) void to.play();
    setActive(active === 'a' ? 'b' : 'a');
  };
  return (
    <div className="vw-vc-result" data-testid="vc-result">
      <div className="vw-vc-result-head">
        <h3>{t.result}</h3>
        <Tag color="blue" data-testid="vc-engine">
          {t.engineLabel(r.engine_label)}
        </Tag>
        {r.engine_kind && (
          <Tag data-testid="vc-kind">{r.engine_kind === 'neural' ? t.kindNeural : t.kindSignal}</Tag>
        )}
        {r.denoised && <Tag>{t.denoised}</Tag>}
        <span className="vw-vt-muted" data-testid="vc-f0">
          {r.target_name} · {t.f0Line(r.source_f0_hz, r.target_f0_hz, r.output_f0_hz)} ·{' '}
          {t.shiftLine(r.semitones, r.formant_semitones)}
        </span>
      </div>
      {r.measured && (
        <div className="vw-vc-measured" data-testid="vc-measured" title={t.measuredHint}>
          <span className="vw-vt-muted">{t.measuredTitle}</span>
          {r.measured.f0_ratio > 0 && r.measured.envelope_ratio > 0 ? (
            <>
              <strong data-testid="vc-measured-f0">{t.measuredF0(r.measured.f0_ratio)}</strong>
              <strong data-testid="vc-measured-envelope">
                {t.measuredEnvelope(r.measured.envelope_ratio)}
              </strong>
            </>
          ) : (
            <span>{t.measuredNone}</span>
          )}
        </div>
      )}
      <WaveformPlayer
        label={`A · ${t.original}`}
        src={r.original.url}
        peaks={r.original.peaks}
        color="#8c8c8c"
        audioRef={a}
        testId="vc-original"
      />
      <WaveformPlayer
        label={`B · ${t.converted}`}
        src={r.converted.url}
        peaks={r.converted.peaks}
        color="#4f46e5"
        audioRef={b}
        testId="vc-converted"
      />
      <div className="vw-vt-actions">
        <Button icon={<SwapOutlined />} onClick={swap} title={t.abHint} data-testid="vc-ab">
          {t.ab}（{active === 'a' ? t.original : t.converted}）
        </Button>
        <Button
          icon={<DownloadOutlined />}
          href={r.converted.url}
          download={r.converted.name}
          data-testid="vc-download"
        >
          {t.download}
          {t.converted}（{r.converted.format.toUpperCase()}）
        </Button>
        <Button icon={<DownloadOutlined />} href={r.original.url} download={r.original.name}>
          {t.download}
          {t.original}
        </Button>
      </div>
    </div>
  );
}
