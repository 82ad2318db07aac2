import { describe, expect, it } from 'vitest';
import {
  addCue,
  addSpeaker,
  clampMove,
  cueAt,
  deleteCues,
  editCues,
  findMatches,
  freshId,
  joinTexts,
  MIN_CUE_MS,
  mergeWithNext,
  moveCue,
  NEW_CUE_MS,
  nudgeCue,
  opError,
  type ProjectDocument,
  removeSpeaker,
  renameSpeaker,
  replaceAll,
  replaceMatch,
  resizeCue,
  type SubtitleCue,
  setCueText,
  setCueTimes,
  setRules,
  setSpeaker,
  splitCue,
  splitTextAt,
  withCues,
} from './document.ts';

const RULES = {
  max_chars_per_line: 16,
  max_lines: 2,
  max_cps: 9,
  min_duration_ms: 1000,
  max_duration_ms: 7000,
  min_gap_ms: 80,
};

const cue = (
  id: string,
  start: number,
  end: number,
  text = id,
  speaker: string | null = null,
): SubtitleCue => ({
  id,
  start_ms: start,
  end_ms: end,
  text,
  speaker_id: speaker,
});

/** a 1–3 s, b 3.5–5 s, c 8–10 s */
function doc(cues: SubtitleCue[] = [cue('a', 1000, 3000), cue('b', 3500, 5000), cue('c', 8000, 10_000)]) {
  const d: ProjectDocument = {
    speakers: [
      { id: 'spk1', name: '说话人 1' },
      { id: 'spk2', name: '说话人 2' },
    ],
    tracks: [
      { id: 't-tr', kind: 'translation', language: 'en', cues: [cue('x', 0, 100)] },
      { id: 't-src', kind: 'source', language: 'zh', cues },
    ],
    rules: RULES,
  };
  return d;
}
const times = (d: ProjectDocument) => editCues(d).map((c) => [c.id, c.start_ms, c.end_ms]);
const texts = (d: ProjectDocument) => editCues(d).map((c) => c.text);
const get = (d: ProjectDocument, id: string) => editCues(d).find((c) => c.id === id)!;

describe('track access', () => {
  it('edits the first source track and keeps other tracks untouched', () => {
    const d = doc();
    expect(editCues(d).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    const e = setCueText(d, 'a', '你好');
    expect(e.tracks[0]).toBe(d.tracks[0]);
    expect(get(e, 'a').text).toBe('你好');
    expect(get(d, 'a').text).toBe('a'); // not mutated
  });

  it('creates a source track when there is none; keeps cues sorted', () => {
    const empty: ProjectDocument = { speakers: [], tracks: [], rules: RULES };
    const e = withCues(empty, [cue('b', 500, 900), cue('a', 0, 400)]);
    expect(e.tracks).toHaveLength(1);
    expect(e.tracks[0]!.kind).toBe('source');
    expect(editCues(e).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('freshId skips taken ids', () => {
    expect(freshId(['c1', 'c2', 'c4'], 'c')).toBe('c5');
    expect(freshId(['c4', 'c5', 'c6'], 'c')).toBe('c7');
    expect(freshId([], 'spk')).toBe('spk1');
  });

  it('a no-op edit returns the same document', () => {
    const d = doc();
    expect(setCueText(d, 'a', 'a')).toBe(d);
    expect(setCueText(d, 'missing', 'x')).toBe(d);
    expect(setCueTimes(d, 'a', 1000, 3000)).toBe(d);
  });
});

describe('timing', () => {
  it('typed times are clamped between the neighbours', () => {
    const d = doc();
    expect(times(setCueTimes(d, 'b', 2000, 9000))).toEqual([
      ['a', 1000, 3000],
      ['b', 3000, 8000],
      ['c', 8000, 10_000],
    ]);
    expect(times(setCueTimes(d, 'b', 4000, 4500))[1]).toEqual(['b', 4000, 4500]);
  });

  it('keeps at least MIN_CUE_MS; an end before the start is pushed after it', () => {
    const d = doc();
    const e = setCueTimes(d, 'b', 4000, 3900);
    expect(get(e, 'b').end_ms - get(e, 'b').start_ms).toBe(MIN_CUE_MS);
    // Moving only the start past the end keeps the end.
    const f = setCueTimes(d, 'b', 6000, 5000);
    expect([get(f, 'b').start_ms, get(f, 'b').end_ms]).toEqual([5000 - MIN_CUE_MS, 5000]);
  });

  it('the first cue cannot start before 0; the last cannot pass the media end', () => {
    const d = doc();
    expect(get(setCueTimes(d, 'a', -500, 2000), 'a').start_ms).toBe(0);
    expect(get(setCueTimes(d, 'c', 8000, 20_000, 12_000), 'c').end_ms).toBe(12_000);
    expect(get(setCueTimes(d, 'c', 8000, 20_000), 'c').end_ms).toBe(20_000);
  });

  it('moves keep the length and stop at the neighbours', () => {
    const d = doc();
    expect(times(moveCue(d, 'b', 200))[1]).toEqual(['b', 3700, 5200]);
    expect(times(moveCue(d, 'b', 10_000))[1]).toEqual(['b', 6500, 8000]);
    expect(times(moveCue(d, 'b', -10_000))[1]).toEqual(['b', 3000, 4500]);
    expect(times(moveCue(d, 'a', -5000))[0]).toEqual(['a', 0, 2000]);
    expect(times(moveCue(d, 'c', 5000, 11_000))[2]).toEqual(['c', 9000, 11_000]);
  });

  it('clampMove never overlaps even when the cue is longer than the room', () => {
    const cues = [cue('a', 0, 1000), cue('b', 900, 3000), cue('c', 2500, 4000)]; // already overlapping input
    const [s, e] = clampMove(cues, 1, 100);
    expect(s).toBeGreaterThanOrEqual(1000);
    expect(e).toBeLessThanOrEqual(2500);
  });

  it('resizes either edge, clamped to the neighbour and to MIN_CUE_MS', () => {
    const d = doc();
    expect(times(resizeCue(d, 'b', 'start', 2500))[1]).toEqual(['b', 3000, 5000]);
    expect(times(resizeCue(d, 'b', 'start', 4000))[1]).toEqual(['b', 4000, 5000]);
    expect(times(resizeCue(d, 'b', 'start', 4990))[1]).toEqual(['b', 5000 - MIN_CUE_MS, 5000]);
    expect(times(resizeCue(d, 'b', 'end', 9000))[1]).toEqual(['b', 3500, 8000]);
    expect(times(resizeCue(d, 'b', 'end', 3000))[1]).toEqual(['b', 3500, 3500 + MIN_CUE_MS]);
  });

  it('nudges ±0.1 s on one edge or both', () => {
    const d = doc();
    expect(times(nudgeCue(d, 'b', 'start', -100))[1]).toEqual(['b', 3400, 5000]);
    expect(times(nudgeCue(d, 'b', 'end', 100))[1]).toEqual(['b', 3500, 5100]);
    expect(times(nudgeCue(d, 'b', 'both', 100))[1]).toEqual(['b', 3600, 5100]);
    // a ends at 3000, b starts at 3500: five nudges reach a's end, the sixth changes nothing.
    let e = d;
    for (let i = 0; i < 5; i++) e = nudgeCue(e, 'b', 'start', -100);
    expect(get(e, 'b').start_ms).toBe(3000);
    expect(nudgeCue(e, 'b', 'start', -100)).toBe(e);
  });
});

describe('split', () => {
  it('splits at the time; text at the proportional character position', () => {
    const d = doc([cue('a', 0, 4000, '一二三四五六七八')]);
    const r = splitCue(d, 'a', 1000);
    if (!r.ok) throw new Error(r.error);
    expect(times(r.doc)).toEqual([
      ['a', 0, 1000],
      [r.cueId, 1000, 4000],
    ]);
    expect(texts(r.doc)).toEqual(['一二', '三四五六七八']);
  });

  it('splits at the caret when editing, with a draft text', () => {
    const d = doc([cue('a', 0, 4000, 'old')]);
    const r = splitCue(d, 'a', 2000, { caret: 5, text: 'Hello world' });
    if (!r.ok) throw new Error(r.error);
    expect(texts(r.doc)).toEqual(['Hello', 'world']);
  });

  it('prefers a space near the proportional point in Latin text', () => {
    expect(splitTextAt('Hello there world', 0.5)).toEqual(['Hello there', 'world']);
    expect(splitTextAt('', 0.5)).toEqual(['', '']);
  });

  it('refuses outside the cue or too close to an edge; the new id is fresh', () => {
    const d = doc();
    expect(splitCue(d, 'a', 500)).toEqual({ ok: false, error: opError.splitOutside });
    expect(splitCue(d, 'a', 1050)).toEqual({ ok: false, error: opError.splitOutside });
    expect(splitCue(d, 'nope', 1500)).toEqual({ ok: false, error: opError.noCue });
    const r = splitCue(d, 'a', 2000);
    if (!r.ok) throw new Error(r.error);
    const ids = r.doc.tracks.flatMap((t) => t.cues.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(get(r.doc, r.cueId!).speaker_id).toBe(get(d, 'a').speaker_id);
  });
});

describe('merge', () => {
  it('merges with the next cue: first start to second end, texts joined', () => {
    const d = doc([
      cue('a', 0, 1000, '你好', 'spk1'),
      cue('b', 1200, 2500, '世界', 'spk2'),
      cue('c', 3000, 4000),
    ]);
    const r = mergeWithNext(d, 'a');
    if (!r.ok) throw new Error(r.error);
    expect(times(r.doc)).toEqual([
      ['a', 0, 2500],
      ['c', 3000, 4000],
    ]);
    expect(texts(r.doc)[0]).toBe('你好世界');
    expect(get(r.doc, 'a').speaker_id).toBe('spk1');
  });

  it('joins Latin texts with a space; an empty side adds nothing', () => {
    expect(joinTexts('Hello', 'world')).toBe('Hello world');
    expect(joinTexts('', 'world')).toBe('world');
    expect(joinTexts('你好，', 'world')).toBe('你好，world');
  });

  it('refuses on the last cue', () => {
    expect(mergeWithNext(doc(), 'c')).toEqual({ ok: false, error: opError.noNext });
  });
});

describe('add and delete', () => {
  it('adds after the selected cue in the gap, at most NEW_CUE_MS long', () => {
    const d = doc();
    const r = addCue(d, { afterId: 'b' });
    if (!r.ok) throw new Error(r.error);
    expect(times(r.doc)[2]).toEqual([r.cueId, 5000, 5000 + NEW_CUE_MS]);
    const s = addCue(d, { afterId: 'a' });
    if (!s.ok) throw new Error(s.error);
    expect(times(s.doc)[1]).toEqual([s.cueId, 3000, 3500]);
    expect(get(s.doc, s.cueId!).text).toBe('');
  });

  it('refuses when the gap is under 200 ms', () => {
    const d = doc([cue('a', 0, 1000), cue('b', 1150, 2000)]);
    expect(addCue(d, { afterId: 'a' })).toEqual({ ok: false, error: opError.gapTooSmall });
    expect(addCue(d, { afterId: 'b', durationMs: 2100 })).toEqual({ ok: false, error: opError.gapTooSmall });
    expect(addCue(d, { afterId: 'b', durationMs: 2000 })).toEqual({ ok: false, error: opError.beyondEnd });
  });

  it('without a selection adds in the gap at the cursor; refused inside a cue', () => {
    const d = doc();
    const r = addCue(d, { atMs: 6000 });
    if (!r.ok) throw new Error(r.error);
    expect(times(r.doc)[2]).toEqual([r.cueId, 6000, 8000]);
    expect(addCue(d, { atMs: 2000 }).ok).toBe(false);
    const empty = addCue({ speakers: [], tracks: [], rules: RULES }, { atMs: 0 });
    expect(empty.ok && times(empty.doc)).toEqual([['c1', 0, NEW_CUE_MS]]);
  });

  it('deletes one or several cues', () => {
    const d = doc();
    expect(editCues(deleteCues(d, ['a', 'c'])).map((c) => c.id)).toEqual(['b']);
    expect(deleteCues(d, ['zzz'])).toBe(d);
  });
});

describe('speakers', () => {
  it('reassigns several cues at once', () => {
    const d = doc();
    const e = setSpeaker(d, ['a', 'c'], 'spk2');
    expect(editCues(e).map((c) => c.speaker_id)).toEqual(['spk2', null, 'spk2']);
    expect(setSpeaker(e, ['a'], 'spk2')).toBe(e);
  });

  it('renames (trimmed, never empty) and adds with a fresh id', () => {
    const d = doc();
    expect(renameSpeaker(d, 'spk1', '  主持人 ').speakers[0]!.name).toBe('主持人');
    expect(renameSpeaker(d, 'spk1', '  ')).toBe(d);
    const { doc: e, speakerId } = addSpeaker(d);
    expect(speakerId).toBe('spk3');
    expect(e.speakers.at(-1)).toEqual({ id: 'spk3', name: '说话人 3' });
  });

  it('removing a speaker unassigns its cues', () => {
    const d = setSpeaker(doc(), ['a'], 'spk1');
    const e = removeSpeaker(d, 'spk1');
    expect(e.speakers.map((s) => s.id)).toEqual(['spk2']);
    expect(get(e, 'a').speaker_id).toBeNull();
  });
});

describe('rules', () => {
  it('sets rules; the same rules change nothing', () => {
    const d = doc();
    expect(setRules(d, { ...RULES })).toBe(d);
    expect(setRules(d, { ...RULES, max_cps: 12 }).rules.max_cps).toBe(12);
  });
});

describe('find and replace', () => {
  const d = doc([
    cue('a', 0, 1000, 'Hello hello'),
    cue('b', 1500, 2000, '你好 HELLO'),
    cue('c', 3000, 4000, 'bye'),
  ]);

  it('finds case-insensitively by default, case-sensitively on request', () => {
    expect(findMatches(d, 'hello')).toEqual([
      { cueId: 'a', index: 0, length: 5 },
      { cueId: 'a', index: 6, length: 5 },
      { cueId: 'b', index: 3, length: 5 },
    ]);
    expect(findMatches(d, 'hello', { caseSensitive: true })).toEqual([{ cueId: 'a', index: 6, length: 5 }]);
    expect(findMatches(d, '')).toEqual([]);
    expect(findMatches(d, 'a.c')).toEqual([]); // not a regular expression
  });

  it('replaces one match; a stale match changes nothing', () => {
    const [, second] = findMatches(d, 'hello');
    const e = replaceMatch(d, second!, 'hello', '您好');
    expect(get(e, 'a').text).toBe('Hello 您好');
    expect(replaceMatch(e, second!, 'hello', 'x')).toBe(e);
  });

  it('replaces all and counts', () => {
    const { doc: e, count } = replaceAll(d, 'hello', 'hi');
    expect(count).toBe(3);
    expect(texts(e)).toEqual(['hi hi', '你好 hi', 'bye']);
    expect(replaceAll(d, 'nothing', 'x')).toEqual({ doc: d, count: 0 });
    expect(replaceAll(d, 'HELLO', '$&$&', { caseSensitive: true }).doc.tracks[1]!.cues[1]!.text).toBe(
      '你好 $&$&',
    );
  });
});

describe('cueAt', () => {
  it('finds the cue at a time by binary search (end exclusive)', () => {
    const cues = editCues(doc());
    expect(cueAt(cues, 1000)?.id).toBe('a');
    expect(cueAt(cues, 2999)?.id).toBe('a');
    expect(cueAt(cues, 3000)).toBeUndefined();
    expect(cueAt(cues, 9000)?.id).toBe('c');
    expect(cueAt([], 0)).toBeUndefined();
  });
});

describe('bilingual projects', () => {
  /** A translation project: source s1 s2 s3, target t1 t2 t3 (each translating one source line). */
  function translation(): ProjectDocument {
    return {
      speakers: [],
      rules: RULES,
      tracks: [
        {
          id: 'src',
          kind: 'source',
          language: 'zh',
          cues: [
            cue('s1', 0, 1000, '今天天气很好'),
            cue('s2', 1200, 2000, '我们去公园'),
            cue('s3', 2500, 3000, '好'),
          ],
        },
        {
          id: 'tgt',
          kind: 'translation',
          language: 'en',
          cues: [
            {
              ...cue('t1', 0, 1000, 'Nice weather'),
              source_ids: ['s1'],
              back_text: '天气好',
              drift: { score: 0.9, flagged: false, method: 'embedding' },
            },
            { ...cue('t2', 1200, 2000, 'To the park'), source_ids: ['s2'] },
            { ...cue('t3', 2500, 3000, 'Good'), source_ids: ['s3'] },
          ],
        },
      ],
      translation: {
        source_language: 'zh',
        target_language: 'en',
        source_track_id: 'src',
        target_track_id: 'tgt',
        preferences: { style: '', audience: '', tone: '', instructions: '' },
        use_glossary: true,
        split: true,
        model: '',
        summary: '',
        subtitle_source: 'subtitle',
        erase_regions: [],
        erase_method: 'fast',
        subtitle_lines: 'bilingual',
        dub_enabled: false,
        lip_sync: false,
        clone_speakers: false,
        drift_threshold: 0.5,
      },
    };
  }
  const track = (d: ProjectDocument, id: string) => d.tracks.find((t) => t.id === id)!.cues;

  it('merging two translation lines merges their 原文 too (one source line, still editable)', () => {
    const r = mergeWithNext(translation(), 't1');
    if (!r.ok) throw new Error(r.error);
    expect(track(r.doc, 'tgt').map((c) => [c.id, c.text, c.source_ids])).toEqual([
      ['t1', 'Nice weather To the park', ['s1']],
      ['t3', 'Good', ['s3']],
    ]);
    // The back-translation was of the first line alone.
    expect(track(r.doc, 'tgt')[0]!.back_text).toBeNull();
    expect(track(r.doc, 'tgt')[0]!.drift).toBeUndefined();
    expect(track(r.doc, 'src').map((c) => [c.id, c.start_ms, c.end_ms, c.text])).toEqual([
      ['s1', 0, 2000, '今天天气很好我们去公园'],
      ['s3', 2500, 3000, '好'],
    ]);
  });

  it('a source line another target line still uses is kept: the merged line lists both', () => {
    const d = translation();
    // t2b also translates s2 (a split line).
    const tgt = d.tracks[1]!;
    tgt.cues.splice(2, 0, { ...cue('t2b', 2000, 2400, 'again'), source_ids: ['s2'] });
    const r = mergeWithNext(d, 't1');
    if (!r.ok) throw new Error(r.error);
    expect(track(r.doc, 'tgt')[0]!.source_ids).toEqual(['s1', 's2']);
    expect(track(r.doc, 'src')).toHaveLength(3);
  });

  it('a second-language track paired by time follows a merge of the edited source track', () => {
    const d = doc([cue('a', 0, 1000, '你好'), cue('b', 1200, 2000, '再见'), cue('c', 3000, 4000, '好')]);
    d.tracks.push({
      id: 'second',
      kind: 'translation',
      language: 'en',
      cues: [cue('x', 0, 1000, 'Hello'), cue('y', 1200, 2000, 'Bye'), cue('z', 3000, 4000, 'Good')],
    });
    const r = mergeWithNext(d, 'a');
    if (!r.ok) throw new Error(r.error);
    expect(texts(r.doc)).toEqual(['你好再见', '好']);
    expect(track(r.doc, 'second').map((c) => [c.start_ms, c.end_ms, c.text])).toEqual([
      [0, 2000, 'Hello Bye'],
      [3000, 4000, 'Good'],
    ]);
  });

  it('find and replace cover 原文 as well as 译文', () => {
    const d = translation();
    expect(findMatches(d, '公园')).toEqual([{ cueId: 't2', sourceId: 's2', index: 3, length: 2 }]);
    expect(findMatches(d, 'park')).toEqual([{ cueId: 't2', index: 7, length: 4 }]);
    const e = replaceMatch(d, findMatches(d, '公园')[0]!, '公园', '海边');
    expect(track(e, 'src')[1]!.text).toBe('我们去海边');
    const all = replaceAll(d, '好', '棒');
    expect(all.count).toBe(2);
    expect(track(all.doc, 'src').map((c) => c.text)).toEqual(['今天天气很棒', '我们去公园', '棒']);
  });
});
