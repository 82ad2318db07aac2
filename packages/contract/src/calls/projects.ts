import { z } from 'zod';
import { defineCall } from '../call.ts';
import { mediaAsset } from './media.ts';
import { TaskStatus, TaskTool } from './tasks.ts';

/*
 * Editor projects (design §10): every video/voice tool's result opens in the one editor at
 * /video-translation/editor?id=<project_id>. A project is a document (speakers, subtitle tracks,
 * checker rules) saved whole with a version, so two tabs cannot silently overwrite each other.
 * Later tools add fields to cues (translation, voice, fit) and tracks; they stay optional.
 */

/** How a dubbed line fits its slot: fits, tight (sped up past the accept cap), overflow (runs past), unfit. */
export const FitStatus = z.enum(['fits', 'tight', 'overflow', 'unfit']);
export type FitStatus = z.infer<typeof FitStatus>;

export const cueFit = z.object({
  status: FitStatus,
  /** How far the line runs past its window (0 when it fits). */
  overflow_ms: z.number().int().min(0),
  /** Chinese, e.g. "超出 0.8 s → 借用间隙 0.3 s，语速 1.12×". */
  summary: z.string().max(500),
  /** What the fit did, in order (trim, borrow_gap, speed, condense, slow_video). */
  actions: z
    .array(
      z.object({
        kind: z.string().max(32),
        ms: z.number().optional(),
        rate: z.number().optional(),
        text: z.string().max(2000).optional(),
      }),
    )
    .max(20),
  /** Why it does not fit, when it does not. */
  reason: z.string().max(500).optional(),
  /** The spoken text was shortened: the share of the line's characters it still says (0..1). */
  kept: z.number().min(0).max(1).optional(),
});
export type CueFit = z.infer<typeof cueFit>;

export { MIN_KEPT_SHARE } from '../constants/dubbing.ts';

/** The automatic check of a dubbed line: the recognizer's transcript against the text. */
export const cueCheck = z.object({
  similarity: z.number().min(0).max(1),
  heard: z.string().max(2000),
  status: z.enum(['passed', 'failed']),
  /** Regenerations the check asked for (≤ 2). */
  retries: z.number().int().min(0),
  /** The speech self-check's figures: error rate, what went wrong, recognition time (ms). */
  cer: z.number().min(0).optional(),
  problem: z.enum(['dropped', 'repeated', 'extra', 'different']).nullable().optional(),
  ms: z.number().min(0).optional(),
  /** 5 on a flagged line: its failure code (refunded); the job itself succeeds. */
  failure_code: z.literal(5).optional(),
});
export type CueCheck = z.infer<typeof cueCheck>;

/** One generated audio of a line; the line keeps its takes and plays the chosen one. */
export const cueTake = z.object({
  id: z.string().min(1).max(64),
  /** Storage key under projects/<owner>/<project>/takes/ (48 kHz mono WAV, fitted to the slot). */
  audio_key: z.string().max(300),
  /** The text spoken (the condensed one when the language model shortened it). */
  text: z.string().max(2000),
  /** The cue text this take was made from (stale when the cue's text differs). */
  source_text: z.string().max(2000),
  voice_id: z.string().max(64),
  duration_ms: z.number().int().min(0),
  fit: cueFit,
  check: cueCheck.optional(),
  /** The cue's text revision the take was made from. */
  text_rev: z.number().int().min(0),
  created: z.number().int(),
  /** The user accepted the shortened spoken text (the editor no longer flags it). */
  accepted: z.boolean().optional(),
});
export type CueTake = z.infer<typeof cueTake>;

/** One-click fixes a line may carry into its next generation. */
export const cueFix = z.object({
  /** Shorten with the language model before fitting. */
  condense: z.boolean().optional(),
  /** Raised speed cap for this line. */
  max_rate: z.number().min(1).max(2).optional(),
  /** Borrow the gap down to this minimum (ms). */
  min_gap_ms: z.number().int().min(0).max(1000).optional(),
  /** Allow slowing the video of this stretch. */
  slow_video: z.boolean().optional(),
  /** Say the whole line (never shortened by the language model). */
  keep_text: z.boolean().optional(),
});
export type CueFix = z.infer<typeof cueFix>;

/** Back-translation drift: score 0..1 (1 = same meaning), flagged below the threshold, how it was scored. */
export const cueDrift = z.object({
  score: z.number().min(0).max(1),
  flagged: z.boolean(),
  method: z.enum(['embedding', 'overlap']),
});
export type CueDrift = z.infer<typeof cueDrift>;

export const subtitleCue = z.object({
  id: z.string().min(1).max(64),
  start_ms: z.number().int().min(0),
  end_ms: z.number().int().min(0),
  text: z.string().max(2000),
  speaker_id: z.string().max(64).nullable(),
  // Dubbing (optional, so projects of other tools stay valid):
  /** Voice of this line; the speaker's voice, then the project's default, when unset. */
  voice_id: z.string().max(64).nullable().optional(),
  /** Bumped by every text edit. */
  text_rev: z.number().int().min(0).optional(),
  /** Bumped by every new take. */
  audio_rev: z.number().int().min(0).optional(),
  /** The text (or voice) changed since the chosen take was made. */
  stale: z.boolean().optional(),
  /** A locked line is never regenerated in bulk. */
  locked: z.boolean().optional(),
  /** SRT marks: leave the cue silent, or keep the original audio there. */
  mark: z.enum(['mute', 'keep']).nullable().optional(),
  takes: z.array(cueTake).max(20).optional(),
  /** The take that plays (the newest when unset). */
  take_id: z.string().max(64).nullable().optional(),
  fit: cueFit.optional(),
  fix: cueFix.optional(),
  // Video translation (optional):
  /** Translation track: the source cues this line translates (smart splitting may merge or split). */
  source_ids: z.array(z.string().max(64)).max(50).optional(),
  /** Translation track: the translation back into the source language (智能回译校对). */
  back_text: z.string().max(2000).nullable().optional(),
  /** Translation track: how far the back-translation drifted from the source. */
  drift: cueDrift.optional(),
});
export type SubtitleCue = z.infer<typeof subtitleCue>;

export const speaker = z.object({
  id: z.string().min(1).max(64),
  name: z.string().max(64),
  /** Dubbing: the voice cast for this speaker. */
  voice_id: z.string().max(64).nullable().optional(),
});
export type Speaker = z.infer<typeof speaker>;

export const subtitleTrack = z.object({
  id: z.string().min(1).max(64),
  kind: z.enum(['source', 'translation']),
  /** Language code, e.g. zh, en; 'auto' when unknown. */
  language: z.string().max(16),
  cues: z.array(subtitleCue).max(20_000),
  /** Set by recognition when the text is not in the language the user asked for (shown in the editor). */
  language_notice: z.string().max(300).optional(),
});
export type SubtitleTrack = z.infer<typeof subtitleTrack>;

/** The rule checker's settings (Netflix zh-Hans defaults; each project may edit them). */
export const subtitleRules = z.object({
  max_chars_per_line: z.number().int().min(1).max(200),
  max_lines: z.number().int().min(1).max(5),
  /** Reading speed: characters per second. */
  max_cps: z.number().min(1).max(100),
  min_duration_ms: z.number().int().min(0),
  max_duration_ms: z.number().int().min(1),
  min_gap_ms: z.number().int().min(0),
});
export type SubtitleRules = z.infer<typeof subtitleRules>;

export const DEFAULT_SUBTITLE_RULES: SubtitleRules = {
  max_chars_per_line: 16,
  max_lines: 2,
  max_cps: 9,
  min_duration_ms: 1000,
  max_duration_ms: 7000,
  min_gap_ms: 80,
};

/** Netflix-style defaults for alphabetic languages: 42 characters a line, 17 characters a second. */
export const LATIN_SUBTITLE_RULES: SubtitleRules = {
  ...DEFAULT_SUBTITLE_RULES,
  max_chars_per_line: 42,
  max_cps: 17,
};

/** The checker's defaults for subtitles in a language: CJK counts characters, others letters. */
export function subtitleRulesFor(language: string): SubtitleRules {
  return /^(zh|ja|ko|yue|cmn)\b/i.test(language.trim()) || language === 'auto'
    ? DEFAULT_SUBTITLE_RULES
    : LATIN_SUBTITLE_RULES;
}

/** libass subtitle style of burned / ASS subtitles (pixels of a 1080-line frame, colours #RRGGBB). */
export const subtitleStyle = z.object({
  font: z.string().max(64).default('Noto Sans CJK SC'),
  size: z.number().int().min(8).max(200).default(56),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default('#FFFFFF'),
  outline_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default('#000000'),
  outline: z.number().min(0).max(20).default(3),
  box: z.boolean().default(false),
  bold: z.boolean().default(false),
  position: z.enum(['bottom', 'top', 'middle']).default('bottom'),
  margin_v: z.number().int().min(0).max(500).default(60),
});
export type SubtitleStyleInput = z.infer<typeof subtitleStyle>;

export const DubOutput = z.enum(['mp4', 'mp3', 'wav', 'stems', 'srt', 'vtt', 'ass']);
export type DubOutput = z.infer<typeof DubOutput>;

/** A dubbing project's settings (SRT配音, AI配音, 视频合成); stored on the document. */
export const dubSettings = z.object({
  /** The project's default voice (lines without a speaker voice or their own). */
  default_voice_id: z.string().max(64).default(''),
  /** Video or audio the dub is laid over (and rendered with); null for a voice track only. */
  media_asset_id: z.string().max(64).nullable().default(null),
  /** Timing-fit caps (VideoLingo 1.2/1.4, KrillinAI 1.15/1.30). */
  accept_rate: z.number().min(1).max(2).default(1.15),
  max_rate: z.number().min(1).max(2).default(1.35),
  min_gap_ms: z.number().int().min(0).max(2000).default(80),
  tolerance_ms: z.number().int().min(0).max(500).default(50),
  /** Shorten overflowing lines with the configured language model. */
  condense: z.boolean().default(true),
  allow_slow_video: z.boolean().default(false),
  /** Recognise each dubbed line and compare it with its text (when a recognizer is configured). */
  check: z.boolean().default(true),
  /**
   * The original audio under the dub: ducked (sidechain), muted, kept as it is, or `separated`: the
   * accompaniment stem of a configured separator (SEPARATOR_URL) under the dub, the voices dropped.
   */
  background: z.enum(['duck', 'mute', 'keep', 'separated']).default('duck'),
  /** −16 LUFS (online) or −23 LUFS (broadcast). */
  loudness: z.enum(['online', 'broadcast']).default('online'),
  subtitle_mode: z.enum(['none', 'burn', 'soft']).default('none'),
  /**
   * `bilingual`: each subtitle gets a second line from the project's translation track (the cue that
   * overlaps it most) — burned, soft and the ASS export. Needs a second track (else it stays single).
   */
  subtitle_lines: z.enum(['single', 'bilingual']).default('single'),
  subtitle_style: subtitleStyle.default(subtitleStyle.parse({})),
  outputs: z.array(DubOutput).max(7).default(['mp4', 'mp3', 'srt']),
  /** 视频合成: extra audio tracks and background music. */
  audio_tracks: z
    .array(
      z.object({
        asset_id: z.string().max(64),
        start_ms: z.number().int().min(0).default(0),
        volume_db: z.number().min(-30).max(20).default(0),
      }),
    )
    .max(8)
    .default([]),
  music_asset_id: z.string().max(64).nullable().default(null),
  music_volume_db: z.number().min(-40).max(10).default(-12),
  /** Storage keys of the last render (dub track, mix) for the editor's players. */
  dub_key: z.string().max(300).nullable().default(null),
  mix_key: z.string().max(300).nullable().default(null),
  /** Which track is spoken (and is the first subtitle line): the source (dubbing) or the translation (视频翻译). */
  spoken_track: z.enum(['source', 'translation']).optional(),
});
export type DubSettings = z.infer<typeof dubSettings>;

/** Custom translation preferences (自定义翻译偏好), saved per user and copied onto each project. */
export const translationPreferences = z.object({
  /** 口语 / 正式 / 文学 / 营销 … (free text). */
  style: z.string().trim().max(32).default(''),
  audience: z.string().trim().max(100).default(''),
  tone: z.string().trim().max(32).default(''),
  instructions: z.string().trim().max(2000).default(''),
});

/** A video translation project's settings (tool `translate`); stored on the document. */
export const translationSettings = z.object({
  source_language: z.string().max(16),
  target_language: z.string().max(16),
  /** The track ids of the source lines and of their translation. */
  source_track_id: z.string().max(64),
  target_track_id: z.string().max(64),
  preferences: translationPreferences.default({ style: '', audience: '', tone: '', instructions: '' }),
  use_glossary: z.boolean().default(true),
  split: z.boolean().default(true),
  /** What translated, e.g. 'deepseek-chat', or '手动翻译' (no language model). */
  model: z.string().max(100).default(''),
  /** The language model's summary of the whole video (context of every chunk). */
  summary: z.string().max(4000).default(''),
  /** Where the subtitles came from, and which stages the task ran. */
  subtitle_source: z.enum(['asr', 'ocr', 'subtitle']).default('asr'),
  /** Original subtitles erased in the render (the regions; empty = not erased). */
  erase_regions: z
    .array(z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }))
    .max(4)
    .default([]),
  erase_method: z.enum(['fast', 'blur']).default('fast'),
  /** Subtitles of the render: target, bilingual (target + source) or none. */
  subtitle_lines: z.enum(['target', 'bilingual', 'none']).default('bilingual'),
  dub_enabled: z.boolean().default(true),
  lip_sync: z.boolean().default(false),
  /** Speakers without a chosen voice are cloned from the video (stage clone_voices). */
  clone_speakers: z.boolean().default(false),
  /** Lines whose drift score is below this are flagged. */
  drift_threshold: z.number().min(0).max(1).default(0.5),
});
export type TranslationSettings = z.infer<typeof translationSettings>;

export const projectDocument = z.object({
  speakers: z.array(speaker).max(100),
  tracks: z.array(subtitleTrack).max(10),
  rules: subtitleRules,
  /** Dubbing projects only. */
  dub: dubSettings.optional(),
  /** Video translation projects only. */
  translation: translationSettings.optional(),
});
export type ProjectDocument = z.infer<typeof projectDocument>;

export const projectView = z.object({
  project_id: z.string(),
  tool: TaskTool,
  name: z.string(),
  /** The status of the project's latest task. */
  status: TaskStatus,
  progress: z.number(),
  task_id: z.string().nullable(),
  source_asset_id: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Signed thumbnail link; '' for audio. */
  cover_url: z.string(),
  /** What made the result, e.g. 'sherpa-onnx · sense_voice' — shown honestly in the editor. */
  engine_label: z.string(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type ProjectView = z.infer<typeof projectView>;

const projectId = z.object({ project_id: z.string().min(1).max(64) });

export const listProjects = defineCall({
  operationId: 'listProjects',
  method: 'GET',
  path: '/v1/projects/list',
  summary: '工具的项目列表（分页，新的在前）',
  tags: ['projects'],
  auth: 'user',
  query: z.object({
    tool: TaskTool,
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number().int(), list: z.array(projectView) }),
});

export const getProject = defineCall({
  operationId: 'getProject',
  method: 'GET',
  path: '/v1/projects/get',
  summary: '打开项目：文档、版本与源媒体',
  tags: ['projects'],
  auth: 'user',
  query: projectId,
  data: z.object({
    project: projectView,
    document: projectDocument,
    version: z.number().int(),
    /** The source media (player and waveform); null when the project has none. */
    media: mediaAsset.nullable(),
  }),
});

export const saveProject = defineCall({
  operationId: 'saveProject',
  method: 'POST',
  path: '/v1/projects/save',
  summary: '保存项目文档（版本不符时拒绝：err_project_version_conflict）',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({ version: z.number().int().min(0), document: projectDocument }),
  data: z.object({ version: z.number().int(), updated_time: z.number().int() }),
});

export const renameProject = defineCall({
  operationId: 'renameProject',
  method: 'POST',
  path: '/v1/projects/rename',
  summary: '重命名项目',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({ name: z.string().trim().min(1).max(100) }),
  data: z.object({ project: projectView }),
});

export const deleteProject = defineCall({
  operationId: 'deleteProject',
  method: 'DELETE',
  path: '/v1/projects/delete',
  summary: '删除项目、它的任务与文件',
  tags: ['projects'],
  auth: 'user',
  body: projectId,
  data: z.object({ deleted: z.number().int() }),
});

export const ExportFormat = z.enum(['txt', 'srt', 'vtt', 'json', 'docx']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const exportProject = defineCall({
  operationId: 'exportProject',
  method: 'POST',
  path: '/v1/projects/export',
  summary: '导出字幕（TXT / SRT / VTT / JSON / DOCX），返回下载链接',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({
    format: ExportFormat,
    /** Which track; the first source track when omitted. */
    track_id: z.string().max(64).optional(),
    /** TXT/DOCX/JSON: put speaker names before lines; timestamps before lines. */
    speakers: z.boolean().default(false),
    timestamps: z.boolean().default(false),
  }),
  data: z.object({ url: z.string(), file_name: z.string(), size: z.number().int() }),
});
