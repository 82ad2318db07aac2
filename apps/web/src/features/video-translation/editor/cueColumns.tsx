import { type ReactNode, useMemo } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { useVoiceLibrary } from '../dubbing/VoiceSelect.tsx';
import { BackCell, LineButtons, type LineTools, SourceCell } from '../translate/CueTranslation.tsx';
import { sourcesOf } from '../translate/model.ts';
import type { CueActions } from './CueList.tsx';
import type { ProjectDocument, SubtitleCue } from './document.ts';
import { dubStatus, isStale } from './dub.ts';
import { DubChip, SpokenNote } from './SpokenNote.tsx';

const vt = zhCN.videoTranslate;

/*
 * A cue row's columns per tool. Every row has its index, rule flag, times, speaker, split / merge /
 * delete and the text box; a tool adds its own columns: a dubbed line's fit chip and spoken text, a
 * translation's source and back-translation beside the text, its line buttons and voice.
 */

const s = zhCN.editor;
const d = zhCN.dubbing;

/**
 * Where a column sits in the row: `status` after the rule flag, `head` after the speaker, `actions`
 * before split / merge / delete, `before` / `after` beside the text box, `below` under it.
 */
export type CuePlace = 'status' | 'head' | 'actions' | 'before' | 'after' | 'below';

export interface CueColumn<V = unknown> {
  key: string;
  place: CuePlace;
  /** The list's header over a column beside the text box. */
  title?: string;
  /**
   * What the cell needs from the document besides its cue, worked out by the list. A row renders
   * again only when it changes (compared field by field): keep it a primitive or a flat record.
   */
  value?(doc: ProjectDocument, cue: SubtitleCue): V;
  cell(cue: SubtitleCue, value: V, actions: CueActions): ReactNode;
}

export interface CueColumns {
  /** The text box's name and placeholder (a translation's text is its 译文). */
  text: { label: string; placeholder: string };
  columns: CueColumn[];
}

/** A column whose cell takes what its `value` gives. */
const column = <V,>(c: CueColumn<V>): CueColumn => c;

/** A subtitle project's rows: nothing beyond the common ones. */
export const PLAIN_COLUMNS: CueColumns = {
  text: { label: s.text, placeholder: s.textPlaceholder },
  columns: [],
};

/** A dubbed line: its fit chip (or mark), and what it really says under the text. */
const dubColumns: CueColumn[] = [
  column({
    key: 'fit',
    place: 'status',
    value: (doc, cue) => ({ status: dubStatus(cue), stale: isStale(doc, cue) }),
    cell: (cue, fit) => <DubChip cue={cue} status={fit.status} stale={fit.stale} />,
  }),
  { key: 'spoken', place: 'below', cell: (cue) => <SpokenNote cue={cue} /> },
];

/** A translated line: its source before it, its back-translation after it, the per-line tasks. */
function translationColumns(tools: LineTools | undefined): CueColumn[] {
  const columns: CueColumn[] = [
    column({
      key: 'source',
      place: 'before',
      title: vt.colSource,
      value: sourceOf,
      cell: (cue, source, actions) => (
        <SourceCell
          text={source.text}
          editable={source.editable}
          onCommit={(value, typing) => actions.setSourceText(cue.id, value, typing)}
          undoTyping={actions.undoTyping}
        />
      ),
    }),
    { key: 'back', place: 'after', title: vt.colBack, cell: (cue) => <BackCell cue={cue} tools={tools} /> },
  ];
  if (tools)
    columns.push({
      key: 'tasks',
      place: 'actions',
      cell: (cue) => <LineButtons cueId={cue.id} tools={tools} />,
    });
  return columns;
}

/** A dubbed translation's line may take its own voice. */
function voiceColumn(voices: Array<{ voice_id: string; name: string }>): CueColumn {
  return {
    key: 'voice',
    place: 'head',
    cell: (cue, _, actions) => (
      <select
        className="vw-ed-speaker vw-ed-voice"
        aria-label={vt.colVoice}
        value={cue.voice_id ?? ''}
        onChange={(e) => actions.setVoice(cue.id, e.target.value || null)}
      >
        <option value="">{d.rowVoiceDefault(vt.colVoice)}</option>
        {voices.map((v) => (
          <option key={v.voice_id} value={v.voice_id}>
            {v.name}
          </option>
        ))}
      </select>
    ),
  };
}

/** The columns of the open document's tool: dubbing's, translation's, both, or none. */
export function useCueColumns(doc: ProjectDocument | null, lineTools?: LineTools): CueColumns {
  const dub = !!doc?.dub;
  const translation = !!doc?.translation;
  const library = useVoiceLibrary();
  const voices = translation && dub ? library : undefined;
  return useMemo(() => {
    if (!dub && !translation) return PLAIN_COLUMNS;
    const columns = [
      ...(dub ? dubColumns : []),
      ...(translation ? translationColumns(lineTools) : []),
      ...(voices ? [voiceColumn(voices)] : []),
    ];
    const text = translation
      ? { label: vt.colTranslation, placeholder: vt.translationPlaceholder }
      : PLAIN_COLUMNS.text;
    return { text, columns };
  }, [dub, translation, voices, lineTools]);
}

function sourceOf(doc: ProjectDocument, cue: SubtitleCue) {
  const sources = sourcesOf(doc, cue);
  return { text: sources.map((c) => c.text).join('\n'), editable: sources.length === 1 };
}
