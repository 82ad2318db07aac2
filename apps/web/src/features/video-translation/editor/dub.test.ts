import type { ProjectDocument, SubtitleCue } from '@vw/contract/calls/projects.ts';
import { describe, expect, it } from 'vitest';
import { setCueText } from './document.ts';
import {
  acceptSpoken,
  chosenTake,
  fitText,
  isStale,
  lineFlag,
  pickTake,
  setLocked,
  setSpeakerVoice,
  spokenText,
  staleCount,
} from './dub.ts';

const fit = (status: 'fits' | 'overflow', overflow_ms = 0) => ({
  status,
  overflow_ms,
  summary: 's',
  actions: [],
});
const take = (id: string, text: string, voice = 'v1') => ({
  id,
  audio_key: `k/${id}`,
  text,
  source_text: text,
  voice_id: voice,
  duration_ms: 900,
  fit: fit(id === 't2' ? 'overflow' : 'fits', id === 't2' ? 800 : 0),
  text_rev: 0,
  created: 1,
});
const cue = (id: string, text: string, over: Partial<SubtitleCue> = {}): SubtitleCue => ({
  id,
  start_ms: 0,
  end_ms: 1000,
  text,
  speaker_id: 'spk1',
  ...over,
});

function doc(): ProjectDocument {
  return {
    speakers: [{ id: 'spk1', name: '小明', voice_id: null }],
    rules: {
      max_chars_per_line: 16,
      max_lines: 2,
      max_cps: 9,
      min_duration_ms: 1000,
      max_duration_ms: 7000,
      min_gap_ms: 80,
    },
    tracks: [
      {
        id: 'source',
        kind: 'source',
        language: 'zh',
        cues: [
          cue('a', '你好', { takes: [take('t1', '你好'), take('t2', '你好')], take_id: 't1' }),
          { ...cue('b', '再见', { takes: [take('t3', '再见')] }), start_ms: 2000, end_ms: 3000 },
          { ...cue('c', '没配音'), start_ms: 4000, end_ms: 5000 },
        ],
      },
    ],
    dub: { default_voice_id: 'v1' } as ProjectDocument['dub'],
  };
}

describe('editor dubbing state', () => {
  it('plays the chosen take, else the newest; a text edit makes the line stale with a new text revision', () => {
    const d = doc();
    const [a, b] = d.tracks[0]!.cues;
    expect(chosenTake(a!)!.id).toBe('t1');
    expect(chosenTake(b!)!.id).toBe('t3');
    expect(staleCount(d)).toBe(1); // only the line without audio
    const edited = setCueText(d, 'b', '再见了');
    const eb = edited.tracks[0]!.cues[1]!;
    expect(eb).toMatchObject({ text_rev: 1, stale: true });
    expect(isStale(edited, eb)).toBe(true);
    expect(staleCount(edited)).toBe(2);
    // A locked line is not counted for 生成过期音频.
    expect(staleCount(setLocked(edited, 'b', true))).toBe(1);
  });

  it('casting a speaker makes its lines stale; picking a take brings its fit', () => {
    const cast = setSpeakerVoice(doc(), 'spk1', 'v2');
    expect(isStale(cast, cast.tracks[0]!.cues[0]!)).toBe(true);
    const picked = pickTake(doc(), 'a', 't2');
    const a = picked.tracks[0]!.cues[0]!;
    expect(a.take_id).toBe('t2');
    expect(fitText(a.fit)).toBe('超出 0.8 s');
  });

  it('flags what a line really says: shortened, cut below 60 %, failed check; accepting clears the mark', () => {
    const d = doc();
    const said = (text: string, kept: number, over: object = {}) => ({
      ...take('s1', text),
      text,
      source_text: '今天我们一起去公园散步吧',
      fit: { ...fit('fits'), kept },
      ...over,
    });
    const line = (t: ReturnType<typeof said>) =>
      cue('x', '今天我们一起去公园散步吧', { takes: [t], take_id: t.id });
    const shortened = line(said('今天一起去公园散步', 0.75));
    expect(spokenText(shortened)).toBe('今天一起去公园散步');
    expect(lineFlag(shortened)).toBe('shortened');
    const cut = line(said('今天我们', 0.33));
    expect(lineFlag(cut)).toBe('cut');
    const failed = line(
      said('今天我们一起去公园散步吧', 1, {
        check: { similarity: 0.2, heard: '别的', status: 'failed' as const, retries: 2 },
      }),
    );
    expect(spokenText(failed)).toBeNull();
    expect(lineFlag(failed)).toBe('mismatch');
    // The same text spoken: nothing to show; a stale take (edited text) is not judged.
    expect(lineFlag(d.tracks[0]!.cues[0]!)).toBeNull();
    expect(lineFlag({ ...cut, text: '改过的字幕' })).toBeNull();
    // 接受精简 marks the chosen take: the spoken text stays shown, the flag goes.
    const withCut = { ...d, tracks: [{ ...d.tracks[0]!, cues: [cut] }] };
    const accepted = acceptSpoken(withCut, 'x').tracks[0]!.cues[0]!;
    expect(chosenTake(accepted)!.accepted).toBe(true);
    expect(spokenText(accepted)).toBe('今天我们');
    expect(lineFlag(accepted)).toBeNull();
  });
});
