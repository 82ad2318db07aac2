import { DEFAULT_SUBTITLE_RULES, type ProjectDocument } from '@vw/contract';
import type { AsrSegment } from '@vw/engines';
import { describe, expect, it } from 'vitest';
import { engineLabel, speakerName } from './recognize-speech.ts';
import { transcriptToDocument } from './speech-document.ts';

const base: ProjectDocument = { speakers: [], tracks: [], rules: DEFAULT_SUBTITLE_RULES };

/** A segment whose words are its characters, `per` ms each from `start`. */
function segment(id: number, text: string, start: number, speaker?: string, per = 100): AsrSegment {
  const words = [...text].map((ch, i) => ({
    text: ch,
    startMs: start + i * per,
    endMs: start + (i + 1) * per,
  }));
  return {
    id,
    text,
    startMs: start,
    endMs: start + text.length * per,
    words,
    ...(speaker ? { speaker } : {}),
  };
}

describe('transcriptToDocument', () => {
  it('names diarized speakers in order of appearance and keeps fitting segments whole', () => {
    const doc = transcriptToDocument(
      {
        language: 'zh',
        segments: [
          segment(1, '第二位说话。', 2000, 'S2'),
          segment(0, '大家好。', 0, 'S1'),
          segment(2, '好的。', 3000, 'S1'),
        ],
      },
      base,
      { splitCues: true },
    );
    expect(doc.speakers).toEqual([
      { id: 'S1', name: '说话人1' },
      { id: 'S2', name: '说话人2' },
    ]);
    expect(doc.tracks[0]!.cues).toEqual([
      { id: 'c1', start_ms: 0, end_ms: 400, text: '大家好。', speaker_id: 'S1' },
      { id: 'c2', start_ms: 2000, end_ms: 2600, text: '第二位说话。', speaker_id: 'S2' },
      { id: 'c3', start_ms: 3000, end_ms: 3300, text: '好的。', speaker_id: 'S1' },
    ]);
  });

  it('cuts a long segment at its word times by the project’s rules, and not when splitting is off', () => {
    const text = '这是一个很长很长的句子它一直说下去，然后还有更多的内容需要被拆分成字幕才可以';
    const split = transcriptToDocument({ language: 'zh', segments: [segment(0, text, 1000)] }, base, {
      splitCues: true,
    });
    expect(split.tracks[0]!.cues.map((c) => [c.start_ms, c.end_ms, c.text])).toEqual([
      [1000, 2800, '这是一个很长很长的\n句子它一直说下去，'],
      [2800, 4800, '然后还有更多的内容需\n要被拆分成字幕才可以'],
    ]);
    const whole = transcriptToDocument({ language: 'zh', segments: [segment(0, text, 1000)] }, base, {
      splitCues: false,
    });
    expect(whole.tracks[0]!.cues).toEqual([
      { id: 'c1', start_ms: 1000, end_ms: 4800, text, speaker_id: null },
    ]);
  });

  it('keeps a long segment whole when its words do not spell its text (no lost punctuation)', () => {
    const text = '这是一个很长很长的句子它一直说下去，然后还有更多的内容需要被拆分成字幕才可以';
    const seg = segment(0, text, 0);
    seg.words = seg.words
      .filter((w) => w.text !== '，')
      .map((w) => ({ ...w, text: w.text === '可' ? '课' : w.text }));
    const doc = transcriptToDocument({ language: 'zh', segments: [seg] }, base, { splitCues: true });
    expect(doc.tracks[0]!.cues.map((c) => c.text)).toEqual([text]);
  });

  it('replaces the source track only, keeps the rules, and drops empty segments', () => {
    const existing: ProjectDocument = {
      speakers: [],
      tracks: [
        { id: 'source', kind: 'source', language: 'auto', cues: [] },
        { id: 'en', kind: 'translation', language: 'en', cues: [] },
      ],
      rules: { ...DEFAULT_SUBTITLE_RULES, max_chars_per_line: 20 },
    };
    const doc = transcriptToDocument(
      { language: '', segments: [segment(0, '  ', 0), segment(1, '你好。', 500)] },
      existing,
      { splitCues: true },
    );
    expect(doc.rules.max_chars_per_line).toBe(20);
    expect(doc.tracks.map((t) => [t.id, t.language, t.cues.length])).toEqual([
      ['source', 'auto', 1],
      ['en', 'en', 0],
    ]);
  });
});

describe('labels', () => {
  it('speaker and engine labels', () => {
    expect(speakerName('S12')).toBe('说话人12');
    expect(speakerName('host')).toBe('host');
    expect(engineLabel({ engine: 'sherpa-onnx:sense-voice-zh' })).toBe('本地识别 · sense-voice-zh');
    // A model's name, never its id, when the registry knows it.
    expect(
      engineLabel({ engine: 'sherpa-onnx:sense-voice-zh' }, [
        { id: 'sherpa-onnx:sense-voice-zh', label: 'SenseVoice 中英日韩粤' },
      ]),
    ).toBe('本地识别 · SenseVoice 中英日韩粤');
    expect(engineLabel({ engine: 'openai-compatible:Systran/faster-whisper:large' })).toBe(
      'OpenAI 兼容接口 · Systran/faster-whisper:large',
    );
  });
});
