import { FileTextOutlined } from '@ant-design/icons';
import useApp from 'antd/es/app/useApp';
import { useId } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { readSubtitle, type SubtitleFile } from './subtitleFile.ts';

const d = zhCN.dubbing;

/** Picks a subtitle file and says how many cues it has and, unless told not to, whom they name. */
export function SubtitlePicker({
  value,
  onChange,
  testId = 'dub-subtitle',
  speakers = true,
}: {
  value: SubtitleFile | null;
  onChange: (f: SubtitleFile | null) => void;
  testId?: string;
  /** Name the speakers found (not where nothing is spoken: 视频合成, the second language's lines). */
  speakers?: boolean;
}) {
  const id = useId();
  const { message } = useApp();
  return (
    <div className="vw-dub-subtitle">
      <label htmlFor={id} className="ant-btn ant-btn-default vw-dub-file-btn">
        <FileTextOutlined /> {value ? value.name : d.subtitlePick}
      </label>
      <input
        id={id}
        type="file"
        accept=".srt,.vtt,.ass,.ssa,text/plain"
        style={{ display: 'none' }}
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (file.size === 0) {
            message.error(d.subtitleEmpty);
            return;
          }
          readSubtitle(file).then(onChange, () => message.error(d.subtitleRead));
        }}
      />
      {value && (
        <span className="vw-vt-muted" data-testid={`${testId}-info`}>
          {d.subtitleCues(value.cues)}
          {speakers && value.speakers.length > 0 ? ` · ${value.speakers.join('、')}` : ''}
        </span>
      )}
    </div>
  );
}
