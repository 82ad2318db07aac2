import { describe, expect, it } from 'vitest';
import { translationDoc } from '@/test/translationDoc.ts';
import { editCues, setCueText } from '../editor/document.ts';
import {
  flaggedCount,
  formatGlossary,
  languagesLabel,
  overlayLines,
  parseGlossary,
  setSourceText,
  sourceTextOf,
  type WizardState,
  wizardBody,
  wizardMissing,
} from './model.ts';
import { DEFAULT_EXPORT, exportPlan } from './TranslationExport.tsx';

describe('glossary text', () => {
  it('reads term = translation, other separators, bare terms (not translated), comments', () => {
    const { entries, errors } = parseGlossary(
      '人工智能 = AI\n# 注释\n\n声音工作台 => Voice Workbench\n大模型：LLM\nDeepSeek\n',
    );
    expect(errors).toEqual([]);
    expect(entries).toEqual([
      { term: '人工智能', translation: 'AI' },
      { term: '声音工作台', translation: 'Voice Workbench' },
      { term: '大模型', translation: 'LLM' },
      { term: 'DeepSeek', translation: null },
    ]);
  });

  it('a later line for the same term (any case) replaces the earlier one', () => {
    expect(parseGlossary('GPU = 显卡\ngpu = 图形处理器').entries).toEqual([
      { term: 'gpu', translation: '图形处理器' },
    ]);
  });

  it('names the lines it cannot read: a separator without a translation, a term too long', () => {
    expect(parseGlossary(`好 = \n= 空\nok = fine\n${'x'.repeat(101)}`).errors).toEqual([1, 2, 4]);
  });

  it('formats back to the same entries', () => {
    const entries = [
      { term: '人工智能', translation: 'AI' },
      { term: 'DeepSeek', translation: null },
    ];
    expect(formatGlossary(entries)).toBe('人工智能 = AI\nDeepSeek');
    expect(parseGlossary(formatGlossary(entries)).entries).toEqual(entries);
  });
});

describe('the wizard', () => {
  const base: WizardState = {
    assetId: 'a1',
    sourceLanguage: 'auto',
    targets: ['en'],
    subtitleSource: 'ocr',
    regions: [{ x: 0.02, y: 0.8, w: 0.96, h: 0.15 }],
    subtitle: null,
    split: true,
    useGlossary: true,
    reviewAfterRecognition: false,
    reviewAfterTranslation: true,
    erase: true,
    eraseMethod: 'blur',
    dub: true,
    voiceId: '',
    speakerVoices: { 小明: 'v2' },
    cloneSpeakers: true,
    cloneConsent: true,
    subtitleLines: 'bilingual',
    subtitleMode: 'burn',
    lipSync: false,
  };

  it('sends the drawn region for recognition and erasing, the review pauses and the subtitles', () => {
    const body = wizardBody(base);
    expect(body).toMatchObject({
      asset_id: 'a1',
      target_languages: ['en'],
      subtitle_source: 'ocr',
      ocr_regions: [{ x: 0.02, y: 0.8, w: 0.96, h: 0.15 }],
      review: { after_recognition: false, after_translation: true },
      erase: { enabled: true, method: 'blur', regions: [{ x: 0.02, y: 0.8, w: 0.96, h: 0.15 }] },
      dub: { enabled: true, clone_speakers: true, clone_consent: true, speaker_voices: { 小明: 'v2' } },
      subtitles: { lines: 'bilingual', mode: 'burn' },
    });
    // No voice chosen: the server's default for the target language; saved preferences apply.
    expect(body.dub).not.toHaveProperty('default_voice_id');
    expect(body).not.toHaveProperty('preferences');
    expect(body).not.toHaveProperty('subtitle');
  });

  it('leaves out what the choices do not use', () => {
    const body = wizardBody({
      ...base,
      subtitleSource: 'subtitle',
      subtitle: { name: 'a.srt', text: '1\n00:00:00,000 --> 00:00:01,000\n你好\n' },
      erase: false,
      dub: false,
      voiceId: 'v1',
    });
    expect(body).not.toHaveProperty('ocr_regions');
    expect(body.subtitle?.name).toBe('a.srt');
    expect(body.erase).toEqual({ enabled: false, method: 'blur' });
    expect(body.dub).toEqual({ enabled: false, speaker_voices: {}, clone_speakers: false, options: {} });
  });

  it('says what is missing before it can start', () => {
    expect(wizardMissing(base)).toBe('');
    expect(wizardMissing({ ...base, assetId: '' })).toBe('请先上传视频');
    expect(wizardMissing({ ...base, cloneConsent: false })).toBe('克隆说话人声音前，请确认拥有使用授权');
    expect(wizardBody({ ...base, cloneConsent: false }).dub).not.toHaveProperty('clone_consent');
    expect(wizardMissing({ ...base, targets: [] })).toBe('请选择目标语言');
    expect(wizardMissing({ ...base, subtitleSource: 'subtitle' })).toBe('请选择字幕文件');
    expect(wizardMissing({ ...base, regions: [] })).toBe('请框选要擦除的字幕区域');
    expect(wizardMissing({ ...base, regions: [], erase: false })).toBe('');
  });
});

describe('the editor on a translation project', () => {
  it('edits the target track; each line shows the source lines it translates', () => {
    const doc = translationDoc();
    const cues = editCues(doc);
    expect(cues.map((c) => c.id)).toEqual(['t1', 't2']);
    expect(sourceTextOf(doc, cues[0]!)).toBe('今天\n天气很好');
    expect(sourceTextOf(doc, cues[1]!)).toBe('我们去公园');
    expect(flaggedCount(cues)).toBe(1);
  });

  it('a line added by hand (no source ids) shows the source lines it overlaps', () => {
    const doc = translationDoc();
    const added = { id: 't9', start_ms: 2600, end_ms: 3000, text: '', speaker_id: null };
    expect(sourceTextOf(doc, added)).toBe('我们去公园');
  });

  it('fixing a translation drops its back-translation and drift, which were of the old text', () => {
    const next = setCueText(translationDoc(), 't2', 'We walk in the park');
    const cue = editCues(next)[1]!;
    expect(cue.text).toBe('We walk in the park');
    expect(cue.back_text).toBeNull();
    expect(cue.drift).toBeUndefined();
    // The other line keeps its back-translation.
    expect(editCues(next)[0]!.drift?.score).toBe(0.92);
  });

  it('edits the source text through a line that translates one source line, not a merged one', () => {
    const doc = translationDoc();
    const [merged, single] = editCues(doc);
    expect(setSourceText(doc, merged!, 'x')).toBeNull();
    const next = setSourceText(doc, single!, '我们去公园散步')!;
    expect(next.tracks[0]!.cues[2]!.text).toBe('我们去公园散步');
    expect(next.tracks[1]).toBe(doc.tracks[1]);
    expect(setSourceText(doc, single!, '我们去公园')).toBe(doc);
  });

  it('the overlay shows the translation with the source under it', () => {
    const doc = translationDoc();
    expect(overlayLines(doc, editCues(doc)[0])).toEqual(['The weather is nice today', '今天\n天气很好']);
    expect(overlayLines(doc, undefined)).toEqual([]);
    const plain = { ...doc, translation: undefined };
    expect(overlayLines(plain, editCues(plain)[0])).toEqual(['今天']);
  });

  it('names the languages', () => {
    const names = [
      { code: 'zh', name: '中文' },
      { code: 'en', name: '英语' },
    ];
    expect(languagesLabel('auto', 'en', names)).toBe('自动识别 → 英语');
    expect(languagesLabel('zh', 'xx', names)).toBe('中文 → xx');
  });
});

describe('translation exports', () => {
  it('text files go out at once; CSV always carries both languages', () => {
    expect(exportPlan({ ...DEFAULT_EXPORT, kind: 'subtitles', format: 'srt', lines: 'bilingual' })).toEqual({
      kind: 'file',
      format: 'srt',
      lines: 'bilingual',
    });
    expect(
      exportPlan({ ...DEFAULT_EXPORT, kind: 'subtitles', format: 'csv', lines: 'source' }),
    ).toMatchObject({
      format: 'csv',
      lines: 'bilingual',
    });
  });

  it('a video or dub export renders, and its files are downloaded when the task ends', () => {
    expect(exportPlan({ ...DEFAULT_EXPORT, kind: 'video', videoLines: 'target', videoMode: 'soft' })).toEqual(
      {
        kind: 'render',
        outputs: ['mp4'],
        subtitles: { lines: 'target', mode: 'soft' },
        formats: ['mp4'],
      },
    );
    expect(exportPlan({ ...DEFAULT_EXPORT, kind: 'audio', audio: 'stems' })).toMatchObject({
      kind: 'render',
      outputs: ['stems'],
    });
    expect(exportPlan({ ...DEFAULT_EXPORT, kind: 'audio', audio: 'mix' })).toEqual({ kind: 'mix' });
  });
});
