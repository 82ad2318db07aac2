import { SoundOutlined } from '@ant-design/icons';
import { Button, Select, Tooltip } from 'antd';
import { useRef } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const d = zhCN.dubbing;

/** The whole voice library (built-in and the user's own, e.g. cloned voices), loaded once. */
export function useVoiceLibrary() {
  const q = useCall(
    api.getAllVoices,
    { query: { legacy_voice_skip_disabled: true } },
    { staleTime: 5 * 60_000, suppressError: true },
  );
  return q.data?.voices ?? [];
}

/** A voice picker over the library, with a preview button (the voice's sample clip). */
export function VoiceSelect({
  value,
  onChange,
  allowEmpty,
  emptyLabel,
  width = 220,
  testId,
  size,
}: {
  value: string | null | undefined;
  onChange: (voiceId: string | null) => void;
  allowEmpty?: boolean;
  emptyLabel?: string;
  width?: number;
  testId?: string;
  size?: 'small' | 'middle';
}) {
  const voices = useVoiceLibrary();
  const audio = useRef<HTMLAudioElement | null>(null);
  const current = voices.find((v) => v.voice_id === value);
  const options = [
    ...(allowEmpty ? [{ value: '', label: emptyLabel ?? '—' }] : []),
    ...voices.map((v) => ({
      value: v.voice_id,
      label: d.voiceOption(v.name, v.category === 'mine', v.engine_label),
    })),
  ];
  return (
    <span className="vw-dub-voice">
      <Select
        showSearch
        size={size}
        optionFilterProp="label"
        value={value ?? ''}
        onChange={(v: string) => onChange(v || null)}
        options={options}
        style={{ width }}
        popupMatchSelectWidth={false}
        data-testid={testId}
      />
      <Tooltip title={d.preview}>
        <Button
          size={size}
          type="text"
          icon={<SoundOutlined />}
          aria-label={d.preview}
          disabled={!current?.preview_url}
          onClick={() => {
            audio.current?.pause();
            audio.current = new Audio(current!.preview_url);
            void audio.current.play().catch(() => {});
          }}
        />
      </Tooltip>
    </span>
  );
}
