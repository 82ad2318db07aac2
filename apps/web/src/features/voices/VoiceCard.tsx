import { CheckCircleFilled, StarFilled, StarOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { SubscribeTip } from '@/components/SubscribeTip.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import type { Voice } from './types.ts';
import { EngineLabel, PreviewButton, VoiceAvatar, VoiceName, VoiceTags } from './VoiceParts.tsx';

const t = zhCN.voices;

export function FavoriteButton({
  voice,
  favorite,
  onToggle,
}: {
  voice: Voice;
  favorite: boolean;
  onToggle: (v: Voice) => void;
}) {
  return (
    <Tooltip title={favorite ? t.unfavorite : t.favorite}>
      <Button
        type="text"
        size="small"
        className={`vw-fav-btn ${favorite ? 'is-on' : ''}`}
        aria-label={favorite ? t.unfavorite : t.favorite}
        aria-pressed={favorite}
        data-testid="voice-favorite"
        icon={favorite ? <StarFilled /> : <StarOutlined />}
        onClick={(e) => {
          e.stopPropagation();
          onToggle(voice);
        }}
      />
    </Tooltip>
  );
}

/** A voice in the library grid. */
export function VoiceCard({
  voice,
  favorite,
  premium,
  selected,
  onFavorite,
  onUse,
  languageName,
}: {
  voice: Voice;
  favorite: boolean;
  premium: boolean;
  selected?: boolean;
  onFavorite: (v: Voice) => void;
  onUse: (v: Voice) => void;
  languageName: (c: string) => ReactNode;
}) {
  const use = (
    <Button
      type={selected ? 'default' : 'primary'}
      ghost={!selected}
      size="small"
      icon={selected ? <CheckCircleFilled /> : undefined}
      onClick={() => onUse(voice)}
      disabled={premium}
      data-testid="voice-use"
    >
      {selected ? t.inUse : t.use}
    </Button>
  );
  return (
    <article
      className={`vw-voice-card ${selected ? 'is-selected' : ''} ${premium ? 'is-locked' : ''}`}
      data-testid="voice-card"
      data-voice-id={voice.voice_id}
      data-premium={premium || undefined}
    >
      <div className="vw-voice-card-top">
        <VoiceAvatar voice={voice} size={48} />
        <div className="vw-voice-card-title">
          <VoiceName voice={voice} />
          <VoiceTags voice={voice} languageName={languageName} />
        </div>
        <FavoriteButton voice={voice} favorite={favorite} onToggle={onFavorite} />
      </div>
      <p className="vw-voice-desc">{voice.description || voice.labels.use_case || '\u00a0'}</p>
      <EngineLabel voice={voice} />
      <div className="vw-voice-card-foot">
        <PreviewButton voice={voice} />
        {premium ? (
          <SubscribeTip source="voice_library">
            <span>{use}</span>
          </SubscribeTip>
        ) : (
          use
        )}
      </div>
    </article>
  );
}
