import type { ProjectDocument } from '@vw/contract/calls/projects.ts';
import { DEFAULT_SUBTITLE_RULES } from '@vw/contract/calls/projects.ts';

/** A translation project: three source lines, the first two merged into one target line. */
export function translationDoc(): ProjectDocument {
  return {
    speakers: [],
    rules: DEFAULT_SUBTITLE_RULES,
    tracks: [
      {
        id: 'src',
        kind: 'source',
        language: 'zh',
        cues: [
          { id: 's1', start_ms: 0, end_ms: 1000, text: '今天', speaker_id: null },
          { id: 's2', start_ms: 1000, end_ms: 2000, text: '天气很好', speaker_id: null },
          { id: 's3', start_ms: 2500, end_ms: 4000, text: '我们去公园', speaker_id: null },
        ],
      },
      {
        id: 'tgt',
        kind: 'translation',
        language: 'en',
        cues: [
          {
            id: 't1',
            start_ms: 0,
            end_ms: 2000,
            text: 'The weather is nice today',
            speaker_id: null,
            source_ids: ['s1', 's2'],
            back_text: '今天天气很好',
            drift: { score: 0.92, flagged: false, method: 'overlap' },
          },
          {
            id: 't2',
            start_ms: 2500,
            end_ms: 4000,
            text: 'We sell the park',
            speaker_id: null,
            source_ids: ['s3'],
            back_text: '我们卖掉公园',
            drift: { score: 0.31, flagged: true, method: 'overlap' },
          },
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
      clone_speakers: false,
      split: true,
      model: 'fake-chat',
      summary: '',
      subtitle_source: 'ocr',
      erase_regions: [],
      erase_method: 'fast',
      subtitle_lines: 'bilingual',
      dub_enabled: true,
      lip_sync: false,
      drift_threshold: 0.5,
    },
  };
}
