import { z } from 'zod';
import { defineCall } from '../call.ts';
import { box } from './ocr.ts';
import { cueFix, dubSettings } from './projects.ts';

/*
 * Dubbing (design §10, issue 17): three tabs of /video-translation share one dub stage.
 * - SRT配音 (`srt_dubbing`): a subtitle file (SRT/VTT/ASS, sent as text) and optionally a video or audio
 *   asset → a timed voice track (and the video with it). `名字：` prefixes name speakers; [静音]/[mute]
 *   and [保留原声]/[keep] marks leave a cue silent or keep the original audio there.
 * - AI配音 (`dubbing`): a video → subtitles (speech recognition, an existing 语音转文字/字幕提取 project,
 *   or an uploaded SRT) → the editor → dubbed in the same language → rendered.
 * - 视频合成 (`synthesis`): a video + audio tracks + subtitles + background music → one MP4, no speech
 *   synthesis.
 * Every tool makes an editor project (the document's `dub` settings, per-cue takes and fit) and a task.
 * Priced as `dubbing` per started minute of the track (the media's length, or the last cue's end).
 */

/** A subtitle file read by the browser: its name (for the extension) and its text (SRT, VTT or ASS). */
export const subtitleFile = z.object({
  name: z.string().trim().min(1).max(255),
  text: z.string().max(2_000_000),
});

/** The options every dubbing tool takes (the document's `dub` settings, all optional here). */
export const dubOptions = dubSettings
  .omit({ dub_key: true, mix_key: true, media_asset_id: true, audio_tracks: true, music_asset_id: true })
  .partial();
export type DubOptions = z.infer<typeof dubOptions>;

const created = z.object({ task_id: z.string(), project_id: z.string(), credits: z.number() });

export const srtDubbingCreate = defineCall({
  operationId: 'srtDubbingCreate',
  method: 'POST',
  path: '/v1/dubbing/srt/create',
  summary: 'SRT配音：按字幕时间轴合成配音（异步任务）',
  tags: ['dubbing'],
  auth: 'user',
  body: z.object({
    subtitle: subtitleFile,
    /** A second subtitle file (another language): the second line of bilingual subtitles, not spoken. */
    second_subtitle: subtitleFile.optional(),
    /** Video or audio the dub is laid over; omitted → a voice track only. */
    media_asset_id: z.string().min(1).max(64).optional(),
    name: z.string().trim().min(1).max(100).optional(),
    default_voice_id: z.string().min(1).max(64),
    /** Speaker name (from `名字：`) → voice id. */
    speaker_voices: z.record(z.string().max(64), z.string().max(64)).default({}),
    options: dubOptions.default({}),
  }),
  data: created,
});

export const dubbingCreate = defineCall({
  operationId: 'dubbingCreate',
  method: 'POST',
  path: '/v1/dubbing/create',
  summary: 'AI配音：视频 → 字幕 → 配音 → 成片（异步任务）',
  tags: ['dubbing'],
  auth: 'user',
  body: z.object({
    asset_id: z.string().min(1).max(64),
    /**
     * Where the subtitles come from: speech recognition, on-screen recognition of burned subtitles
     * (OCR, in the prepare stage), an existing project, or an uploaded file.
     */
    source: z.enum(['asr', 'ocr', 'project', 'subtitle']),
    /** For `ocr`: the subtitle regions to read (normalised boxes); detected automatically when omitted. */
    ocr_regions: z.array(box).min(1).max(4).optional(),
    source_project_id: z.string().min(1).max(64).optional(),
    subtitle: subtitleFile.optional(),
    /** Recognition language ('auto' to detect). */
    language: z.string().min(2).max(16).default('auto'),
    /** Pause after the subtitles are made, so they can be checked in the editor before dubbing. */
    review: z.boolean().default(false),
    name: z.string().trim().min(1).max(100).optional(),
    default_voice_id: z.string().min(1).max(64),
    speaker_voices: z.record(z.string().max(64), z.string().max(64)).default({}),
    options: dubOptions.default({}),
  }),
  data: created,
});

export const videoSynthesisCreate = defineCall({
  operationId: 'videoSynthesisCreate',
  method: 'POST',
  path: '/v1/synthesis/create',
  summary: '视频合成：视频 + 音轨 + 字幕 + 背景音乐 → 一个 MP4（异步任务）',
  tags: ['dubbing'],
  auth: 'user',
  body: z.object({
    video_asset_id: z.string().min(1).max(64),
    audio_tracks: dubSettings.shape.audio_tracks,
    subtitle: subtitleFile.optional(),
    music_asset_id: z.string().min(1).max(64).optional(),
    music_volume_db: z.number().min(-40).max(10).default(-12),
    name: z.string().trim().min(1).max(100).optional(),
    options: dubOptions
      .pick({
        background: true,
        loudness: true,
        subtitle_mode: true,
        subtitle_style: true,
        subtitle_lines: true,
      })
      .default({}),
  }),
  data: created,
});

const projectRef = z.object({ project_id: z.string().min(1).max(64) });

/**
 * Runs the dub stage again on a project: `stale` regenerates stale (and never-made) unlocked lines,
 * `line` one line (locked or not; with an optional one-click fix), `all` every unlocked line,
 * `render` none (place, mix and render the chosen takes). A task of the project's tool.
 */
export const dubbingRegenerate = defineCall({
  operationId: 'dubbingRegenerate',
  method: 'POST',
  path: '/v1/dubbing/regenerate',
  summary: '生成过期音频 / 重新生成一句 / 一键修复 / 渲染导出（异步任务）',
  tags: ['dubbing'],
  auth: 'user',
  body: projectRef.extend({
    scope: z.enum(['stale', 'line', 'all', 'render']),
    cue_id: z.string().min(1).max(64).optional(),
    /**
     * One-click fix for `line`: shorten (language model), borrow gap, speed, slow video, or keep_text
     * (the whole line, never shortened: faster, with the gap and slower video when there is one).
     */
    fix: z.enum(['shorten', 'borrow_gap', 'speed', 'slow_video', 'keep_text']).optional(),
    /** Outputs of the render that follows (the project's when omitted). */
    outputs: dubSettings.shape.outputs.optional(),
  }),
  data: z.object({ task_id: z.string(), credits: z.number(), lines: z.number().int() }),
});

/** Picks an earlier take of a line (it survives regenerating the others). */
export const dubbingPickTake = defineCall({
  operationId: 'dubbingPickTake',
  method: 'POST',
  path: '/v1/dubbing/pick-take',
  summary: '选用一句的历史版本',
  tags: ['dubbing'],
  auth: 'user',
  body: projectRef.extend({
    version: z.number().int().min(0),
    cue_id: z.string().min(1).max(64),
    take_id: z.string().min(1).max(64),
  }),
  data: z.object({ version: z.number().int() }),
});

export const dubbingLock = defineCall({
  operationId: 'dubbingLock',
  method: 'POST',
  path: '/v1/dubbing/lock',
  summary: '锁定 / 解锁句子（锁定的句子不参与批量重新生成）',
  tags: ['dubbing'],
  auth: 'user',
  body: projectRef.extend({
    version: z.number().int().min(0),
    cue_ids: z.array(z.string().min(1).max(64)).min(1).max(20_000),
    locked: z.boolean(),
  }),
  data: z.object({ version: z.number().int() }),
});

/** Signed links for the editor's players: the dub track, the mix, and every take. */
export const dubbingMedia = defineCall({
  operationId: 'dubbingMedia',
  method: 'GET',
  path: '/v1/dubbing/media',
  summary: '配音音轨、混音与各句版本的播放链接',
  tags: ['dubbing'],
  auth: 'user',
  query: projectRef,
  data: z.object({
    dub_url: z.string(),
    mix_url: z.string(),
    /** take id → signed link. */
    takes: z.record(z.string(), z.string()),
  }),
});

export { cueFix };
