import { CaretRightFilled, CrownFilled, LoadingOutlined, PauseOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { HoverTip } from '@/components/HoverTip.tsx';
import { Button } from '@/components/ui/Button.tsx';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { ageName, genderName, genders, isPremiumVoice, isStandardEngine, styles } from './model.ts';
import { usePreviewStore } from './preview.ts';
import type { Voice } from './types.ts';

// The pieces of a voice that /tts shows too: kept apart from the library card (and its subscribe tip).

const t = zhCN.voices;

const PALETTE = [
  ['#6366f1', '#8b5cf6'],
  ['#0ea5e9', '#6366f1'],
  ['#ec4899', '#f97316'],
  ['#14b8a6', '#0ea5e9'],
  ['#f59e0b', '#ef4444'],
  ['#8b5cf6', '#ec4899'],
];

/** A stable gradient per voice, so the same voice always looks the same. */
function voiceGradient(id: string) {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const [a, b] = PALETTE[h % PALETTE.length];
  return `linear-gradient(135deg, ${a}, ${b})`;
}

export function VoiceAvatar({ voice, size = 44 }: { voice: Voice; size?: number }) {
  const playingId = usePreviewStore((s) => s.playingId);
  return (
    <span
      className={`vw-voice-avatar ${playingId === voice.voice_id ? 'is-playing' : ''}`}
      style={{ width: size, height: size, background: voiceGradient(voice.voice_id), fontSize: size * 0.42 }}
      aria-hidden
    >
      {[...voice.name][0] ?? t.avatarFallback}
    </span>
  );
}

export function PreviewButton({ voice, size = 'middle' }: { voice: Voice; size?: 'small' | 'middle' }) {
  const playing = usePreviewStore((s) => s.playingId === voice.voice_id);
  const loading = usePreviewStore((s) => s.loadingId === voice.voice_id);
  const toggle = usePreviewStore((s) => s.toggle);
  const title = !voice.preview_url ? t.noPreview : playing ? t.stopPreview : t.preview;
  return (
    <HoverTip title={title}>
      <Button
        shape="circle"
        size={size}
        className={`vw-preview-btn ${playing ? 'is-playing' : ''}`}
        disabled={!voice.preview_url}
        aria-label={title}
        data-testid="voice-preview"
        icon={loading ? <LoadingOutlined /> : playing ? <PauseOutlined /> : <CaretRightFilled />}
        onClick={(e) => {
          e.stopPropagation();
          toggle(voice.voice_id, voice.preview_url);
        }}
      />
    </HoverTip>
  );
}

export function VoiceTags({ voice, languageName }: { voice: Voice; languageName: (c: string) => ReactNode }) {
  const tags: ReactNode[] = [];
  for (const g of genders(voice)) tags.push(genderName(g));
  if (voice.labels.language) tags.push(languageName(voice.labels.language));
  if (voice.labels.age) tags.push(ageName(voice.labels.age));
  for (const s of styles(voice).slice(0, 2)) tags.push(s);
  return (
    <div className="vw-voice-tags">
      {tags.map((tag, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tags are positional and never reorder
        <span key={i} className="vw-voice-tag">
          {tag}
        </span>
      ))}
    </div>
  );
}

/**
 * What speaks the voice, as the server words it (神经网络 · Kokoro 中英双语, 标准引擎): shown wherever a
 * voice is chosen, so a neural voice and the machine-like standard engine are told apart.
 */
export function EngineLabel({ voice }: { voice: Voice }) {
  return (
    <div
      className={`vw-voice-engine${isStandardEngine(voice) ? '' : ' is-neural'}`}
      data-testid="voice-engine"
      data-engine={voice.engine}
    >
      {voice.engine_label}
    </div>
  );
}

/**
 * A voice's name with a badge when it needs a membership: 高级 only for a voice whose sound is better
 * (a neural or self-hosted engine); a plan's voice on the standard engine names the plan, nothing more.
 */
export function VoiceName({ voice }: { voice: Voice }) {
  return (
    <div className="vw-voice-name">
      <span className="vw-voice-name-text">{voice.name}</span>
      {isPremiumVoice(voice) && <PremiumBadge voice={voice} standard={isStandardEngine(voice)} />}
    </div>
  );
}

function PremiumBadge({ voice, standard }: { voice: Voice; standard: boolean }) {
  // The plan it needs, by name (专业版), for a standard voice: the plan unlocks it, the sound is the same.
  const plan = useCall(api.getPlans, undefined, {
    enabled: standard,
    staleTime: 10 * 60_000,
    suppressError: true,
    select: (d) => d.plans.find((p) => p.level === voice.required_level)?.title,
  }).data;
  const label = standard ? (plan ?? t.membersOnly) : t.premium;
  const badge = (
    <span
      className={`vw-premium-badge${standard ? ' is-plan' : ''}`}
      data-testid="premium-badge"
      data-kind={standard ? 'plan' : 'premium'}
    >
      <CrownFilled /> {label}
    </span>
  );
  return standard ? <HoverTip title={t.membersOnlyTip(label)}>{badge}</HoverTip> : badge;
}
