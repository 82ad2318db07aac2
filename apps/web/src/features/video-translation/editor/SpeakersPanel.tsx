import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Typography } from 'antd';
import { useMemo } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { useEditor } from './context.tsx';
import { addSpeaker, removeSpeaker, renameSpeaker, setSpeaker } from './document.ts';

const s = zhCN.editor;

/** Speakers: rename, add, remove; a click on a speaker's tag assigns it to the selected cues. */
export function SpeakersPanel() {
  const editor = useEditor();
  const { state, cues, current, edit } = editor;
  const speakers = state.doc?.speakers ?? [];
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const c of cues) if (c.speaker_id) m.set(c.speaker_id, (m.get(c.speaker_id) ?? 0) + 1);
    return m;
  }, [cues]);
  const nSelected = state.selected.length;

  return (
    <section className="vw-ed-speakers" aria-label={s.speakers} data-testid="speakers-panel">
      <div className="vw-ed-panel-title">
        <span>{s.speakers}</span>
        <Button
          size="small"
          type="text"
          icon={<PlusOutlined />}
          onClick={() => edit(addSpeaker(current().doc!).doc)}
        >
          {s.addSpeaker}
        </Button>
      </div>
      <ul className="vw-ed-speaker-list">
        {speakers.map((sp, i) => (
          <li key={sp.id} data-testid="speaker-item">
            <span className="vw-ed-speaker-dot" style={{ background: speakerColor(i) }} />
            <Typography.Text
              className="vw-ed-speaker-name"
              editable={{
                onChange: (name) => edit(renameSpeaker(current().doc!, sp.id, name)),
                triggerType: ['icon', 'text'],
                tooltip: s.rename,
              }}
            >
              {sp.name}
            </Typography.Text>
            <span className="vw-ed-muted">{s.speakerCues(counts.get(sp.id) ?? 0)}</span>
            <Button
              size="small"
              type="link"
              disabled={nSelected === 0}
              onClick={() => {
                edit(setSpeaker(current().doc!, current().selected, sp.id));
                editor.notify(s.reassignDone(nSelected, sp.name), 'success');
              }}
            >
              {s.assignSpeaker}
            </Button>
            <Popconfirm
              title={s.removeSpeakerConfirm}
              onConfirm={() => edit(removeSpeaker(current().doc!, sp.id))}
            >
              <button
                type="button"
                className="vw-ed-icon danger"
                aria-label={`${s.removeSpeaker} ${sp.name}`}
              >
                <DeleteOutlined />
              </button>
            </Popconfirm>
          </li>
        ))}
      </ul>
    </section>
  );
}

const COLORS = ['#6d8cff', '#f59e0b', '#10b981', '#ec4899', '#8b5cf6', '#14b8a6', '#f97316', '#84cc16'];
export const speakerColor = (index: number) => COLORS[index % COLORS.length]!;
