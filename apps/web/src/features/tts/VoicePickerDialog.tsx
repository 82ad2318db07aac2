import { CheckOutlined } from '@ant-design/icons';
import { Empty, Modal, Segmented } from 'antd';
import { SubscribeTip } from '@/components/SubscribeTip.tsx';
import { isLocked } from '@/features/voices/model.ts';
import type { Voice } from '@/features/voices/types.ts';
import type { useVoiceLibrary } from '@/features/voices/useVoiceLibrary.tsx';
import { useVoiceTabs, type VoiceTab } from '@/features/voices/useVoiceTabs.ts';
import { FavoriteButton } from '@/features/voices/VoiceCard.tsx';
import { VoiceFilters } from '@/features/voices/VoiceFilters.tsx';
import {
  EngineLabel,
  PreviewButton,
  VoiceAvatar,
  VoiceName,
  VoiceTags,
} from '@/features/voices/VoiceParts.tsx';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.tts;
const tv = zhCN.voices;
type VoiceLibrary = ReturnType<typeof useVoiceLibrary>;

function VoiceRow({
  voice,
  selected,
  locked,
  onPick,
  onFavorite,
  languageName,
}: {
  voice: Voice;
  selected: boolean;
  locked: boolean;
  onPick: (v: Voice) => void;
  onFavorite: (v: Voice) => void;
  languageName: (c: string) => React.ReactNode;
}) {
  const row = (
    // biome-ignore lint/a11y/useSemanticElements: a row holding buttons cannot itself be a <button>
    <div
      role="button"
      tabIndex={0}
      className={`vw-picker-row ${selected ? 'is-selected' : ''} ${locked ? 'is-locked' : ''}`}
      data-testid="picker-voice"
      data-voice-id={voice.voice_id}
      data-locked={locked || undefined}
      aria-pressed={selected}
      onClick={() => !locked && onPick(voice)}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && !locked) {
          e.preventDefault();
          onPick(voice);
        }
      }}
    >
      <VoiceAvatar voice={voice} size={40} />
      <div className="vw-picker-row-main">
        <VoiceName voice={voice} />
        <VoiceTags voice={voice} languageName={languageName} />
        <EngineLabel voice={voice} />
      </div>
      <FavoriteButton voice={voice} favorite={voice.is_favorite} onToggle={onFavorite} />
      <PreviewButton voice={voice} size="small" />
      <span className="vw-picker-check">{selected && <CheckOutlined />}</span>
    </div>
  );
  return locked ? (
    <SubscribeTip source="tts_voice_picker">
      <div>{row}</div>
    </SubscribeTip>
  ) : (
    row
  );
}

/** The voice-choosing dialog of the picker (search, filters, favourites, preview); loaded when first opened. */
export default function VoicePickerDialog({
  open,
  value,
  library,
  onPick,
  onClose,
}: {
  open: boolean;
  value: string;
  library: VoiceLibrary;
  onPick: (voiceId: string) => void;
  onClose: () => void;
}) {
  const { builtin, mine, level, toggleFavorite, languageName } = library;
  const { tab, setTab, filter, setFilter, source, shown } = useVoiceTabs(builtin, mine);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={760}
      title={t.chooseVoice}
      destroyOnHidden
      classNames={{ body: 'vw-picker-body' }}
    >
      <div data-testid="voice-picker">
        <Segmented<VoiceTab>
          value={tab}
          onChange={setTab}
          options={[
            { value: 'all', label: tv.tabAll },
            { value: 'favorites', label: tv.tabFavorites },
            { value: 'mine', label: tv.tabMine },
          ]}
        />
        <VoiceFilters
          voices={source}
          filter={filter}
          onChange={setFilter}
          languageName={languageName}
          compact
        />
        <div className="vw-picker-list">
          {shown.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                tab === 'mine' && mine.length === 0
                  ? tv.mineEmptyTitle
                  : tab === 'favorites' && source.length === 0
                    ? tv.emptyFavorites
                    : tv.empty
              }
            />
          ) : (
            shown.map((v) => (
              <VoiceRow
                key={v.voice_id}
                voice={v}
                selected={v.voice_id === value}
                locked={isLocked(v, level)}
                onFavorite={toggleFavorite}
                languageName={languageName}
                onPick={(picked) => {
                  onPick(picked.voice_id);
                  onClose();
                }}
              />
            ))
          )}
        </div>
      </div>
    </Modal>
  );
}
