import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import {
  countTtsCharacters,
  FREE_LEVEL,
  md5,
  speechCues,
  stripTtsMarkup,
  subtitleRulesFor,
  TTS_HEADERS,
  TTS_SYNC_MAX_CHARS,
  TtsFailureCode,
  type TtsSentence,
  taskFailureMessages,
  toSrt,
  ttsCacheKey,
  ttsMaxChars,
} from '@vw/contract';
import {
  createMp3Encoder,
  type EngineVoice,
  isMandarinVoice,
  type Pcm,
  type PronunciationDictionary,
  pcmToBuffer,
  resolveEspeakVoice,
  type SentenceCheck,
  selfCheckFigures,
  wavHeader,
} from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { CreditHold, TtsHistoryRow } from '../../db/schema.ts';
import { synthesisFailure } from '../../engine-errors.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { createTask, runTaskInline } from '../../tasks/index.ts';
import { keepHoldLease, newHoldLease } from '../credits/hold-leases.ts';
import { captureCredits, holdCredits, releaseCredits } from '../credits/ledger.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import {
  atSpeed,
  type CheckedSpeech,
  creditsAfterFlags,
  speakChecked,
} from '../projects/stages/self-check.ts';
import { getSetting } from '../settings/settings.service.ts';
import { getDictionary, planDictionary } from '../voices/dictionary.service.ts';
import { getUsableVoice, getUserLevel } from '../voices/voices.service.ts';
import {
  type PieceTimes,
  pieceTimes,
  planSentences,
  type SentenceUnit,
  spokenWords,
} from '../voices/voices.text.ts';
import { ttsPipeline } from './tts.pipeline.ts';
import { findCachedHistory, findHistoryById, insertHistory, updateHistory } from './tts.repo.ts';

export interface TtsRequest {
  text: string;
  text_md5?: string;
  voice_id: string;
  model_id?: string;
  speed: number;
  pitch: number;
  volume: number;
  format: 'mp3' | 'wav';
  name?: string;
  mode: 'auto' | 'stream' | 'task';
  no_cache: boolean;
}

/** What a synthesis needs besides the text; stored on the row so a resumed task speaks the same way. */
export interface SynthesisPlan {
  voice: EngineVoice;
  language: string;
  dictionary: PronunciationDictionary;
  inlinePinyin: boolean;
}

const CONTENT_TYPES = { mp3: 'audio/mpeg', wav: 'audio/wav' } as const;

/** From about a minute of speech on, MP3 is encoded by ffmpeg: native LAME keeps up with synthesis. */
export const longMp3 = (row: Pick<TtsHistoryRow, 'characters'>) => row.characters >= 300;

/** How a stored plan reads its text (language for the normaliser, the user's words). */
export const readingOf = (plan: SynthesisPlan) => ({ language: plan.language, words: plan.dictionary });

export const audioKey = (row: Pick<TtsHistoryRow, 'user_id' | 'id'>, ext: string, version = '') =>
  `tts/${row.user_id}/${row.id}${version}.${ext}`;

function isMandarinPlan(voice: EngineVoice, language: string): boolean {
  if (voice.engine !== 'espeak') return false;
  try {
    return isMandarinVoice(resolveEspeakVoice(voice, language));
  } catch {
    return false;
  }
}

/** The operator's sensitive words (runtime setting); a hit refuses the text (task failure 3, refunded). */
async function auditText(ctx: AppContext, plain: string): Promise<boolean> {
  const words = await getSetting(ctx, 'sensitive_words');
  return !words.some((w) => w && plain.includes(w));
}

function defaultName(plain: string): string {
  return Array.from(plain.replace(/\s+/g, ' ').trim()).slice(0, 20).join('') || '未命名';
}

/** What a synthesis call answers: a task started, or audio bytes for the route to send. */
export type GenerateOutcome =
  | { kind: 'task'; data: { task_id: string; history_id: string; credits: number; cache_hit: boolean } }
  | { kind: 'audio'; headers: Record<string, string>; body: Buffer | Readable };

/**
 * The synthesis call: validate, answer from the cache, else hold the price, audit, and either stream
 * the audio as it is produced or start a task. Errors before the first byte are envelopes.
 */
export async function generateSpeech(
  ctx: AppContext,
  userId: string,
  input: TtsRequest,
  /** Set by the public API: the key is charged (and its credit limit checked) and told of the task's end. */
  via: { apiKey?: { id: string; creditLimit: number | null } } = {},
): Promise<GenerateOutcome> {
  const characters = countTtsCharacters(input.text);
  if (characters === 0) throw AppError.named('err_invalid_param', '没有要合成的文字');
  const textMd5 = md5(input.text);
  if (input.text_md5 && input.text_md5.toLowerCase() !== textMd5) {
    throw AppError.named('err_invalid_param', 'text_md5 与文字不符');
  }
  let level: number | undefined;
  const userLevel = async () => (level ??= await getUserLevel(ctx, userId));
  if (characters > ttsMaxChars(FREE_LEVEL) && characters > ttsMaxChars(await userLevel())) {
    throw AppError.named('err_invalid_param', `文字超过当前套餐上限（${ttsMaxChars(await userLevel())} 字）`);
  }
  const voice = await getUsableVoice(ctx, userId, input.voice_id, input.model_id, userLevel);
  const speed = Math.round(input.speed * 100) / 100;
  const language = voice.row.language;
  const inlinePinyin = isMandarinPlan(voice.engineVoice, language);
  const plain = stripTtsMarkup(input.text);
  const dictionary = planDictionary(await getDictionary(ctx, userId), plain, inlinePinyin);
  const cacheKey = ttsCacheKey({
    text_md5: textMd5,
    voice_id: voice.row.voice_id,
    model_id: voice.modelId,
    speed,
  });
  const optionsKey = md5(
    JSON.stringify([input.pitch, input.volume, input.format, Object.entries(dictionary).sort()]),
  );
  const asTask = input.mode === 'task' || (input.mode === 'auto' && characters > TTS_SYNC_MAX_CHARS);

  if (!input.no_cache) {
    const hit = await findCachedHistory(ctx.db, userId, cacheKey, optionsKey);
    if (hit) {
      // Moves the item to the top of the history; the answer does not wait for it.
      updateHistory(ctx.db, hit.id, { updated_at: ctx.clock.now() }).catch((err) =>
        ctx.log.warn({ err }, 'could not touch a cached history item'),
      );
      if (asTask) {
        return {
          kind: 'task',
          data: { task_id: hit.task_id ?? hit.id, history_id: hit.id, credits: 0, cache_hit: true },
        };
      }
      return {
        kind: 'audio',
        headers: {
          'content-type': CONTENT_TYPES[hit.format],
          [TTS_HEADERS.historyId]: hit.id,
          [TTS_HEADERS.cacheHit]: '1',
          [TTS_HEADERS.credits]: '0',
          [TTS_HEADERS.characters]: String(hit.characters),
          [TTS_HEADERS.cacheKey]: cacheKey,
        },
        body: await ctx.storage.read(hit.audio_key!),
      };
    }
  }

  const plan: SynthesisPlan = { voice: voice.engineVoice, language, dictionary, inlinePinyin };
  const units = planSentences(input.text, inlinePinyin, { language, words: dictionary });
  const price = await priceTask(ctx, 'tts', { characters });
  const now = ctx.clock.now();
  const row: TtsHistoryRow = {
    id: newId('tts'),
    user_id: userId,
    tool: 'tts',
    name: input.name?.trim() || defaultName(plain),
    text: input.text,
    text_md5: textMd5,
    voice_id: voice.row.voice_id,
    voice_name: voice.row.name,
    model_id: voice.modelId,
    speed,
    pitch: input.pitch,
    volume: input.volume,
    format: input.format,
    characters,
    credits: price,
    cache_key: cacheKey,
    options_key: optionsKey,
    options: JSON.stringify(plan),
    hold_key: null,
    task_id: null,
    status: asTask ? 'queued' : 'running',
    progress: 0,
    sentences_total: units.length,
    sentences_done: 0,
    failure_code: null,
    error: null,
    duration_ms: 0,
    is_stale: 0,
    audio_key: null,
    audio_size: 0,
    srt_key: null,
    srt_size: 0,
    wav_key: null,
    wav_size: 0,
    sentences: null,
    created_at: now,
    updated_at: now,
    api_key_id: via.apiKey?.id ?? null,
    self_check: null,
  };
  if (asTask) return startSynthesisTask(ctx, row, plain, price, via.apiKey?.id ?? null);
  if (price > 0) {
    row.hold_key = `tts:${row.id}`;
    // Not enough credits → 1010 before anything is written.
    await holdCredits(ctx, {
      userId,
      holdKey: row.hold_key,
      amount: price,
      tool: 'tts',
      taskId: row.id,
      taskName: row.name,
      apiKey: via.apiKey,
      // Only this process can settle a stream's hold: it vouches for it with a lease while it
      // works, and the lease sweep refunds it if the process dies (hold-leases.ts).
      lease: newHoldLease(ctx),
    });
  }
  const lease = row.hold_key ? keepHoldLease(ctx, row.hold_key) : undefined;
  try {
    await insertHistory(ctx.db, row);
    if (!(await auditText(ctx, plain))) {
      await failSynthesis(ctx, row, TtsFailureCode.SensitiveContent, '内容审核未通过');
      throw AppError.named('err_audit_refused');
    }
    return await streamSynthesis(ctx, row, plan, units, lease);
  } catch (err) {
    lease?.stop();
    throw err;
  }
}

/**
 * A stream whose process died: its hold's lease ran out and the sweep gave the credits back
 * (hold-leases.ts); the item is marked failed like any engine failure (code 1, refunded).
 */
export async function failSynthesisOfAbandonedHold(ctx: AppContext, hold: CreditHold): Promise<void> {
  const row = await findHistoryById(ctx.db, hold.task_id);
  if (row && row.hold_key === hold.hold_key && (row.status === 'running' || row.status === 'queued')) {
    await failSynthesis(ctx, row, TtsFailureCode.GenerationFailed, taskFailureMessages[1]);
  }
}

/**
 * Long text: a task of the `tts` pipeline (tts.pipeline.ts) holds the price, and the history row is
 * written with the task's id before its first stage can run; the row stays the tool's own view.
 */
async function startSynthesisTask(
  ctx: AppContext,
  row: TtsHistoryRow,
  plain: string,
  price: number,
  apiKeyId: string | null,
): Promise<GenerateOutcome> {
  if (!(await auditText(ctx, plain))) {
    // Nothing held yet: the refused item is recorded as failed, like a refused stream.
    await insertHistory(ctx.db, {
      ...row,
      status: 'failed',
      failure_code: TtsFailureCode.SensitiveContent,
      error: '内容审核未通过',
    });
    throw AppError.named('err_audit_refused');
  }
  const task = await createTask(ctx, ttsPipeline, {
    ownerId: row.user_id,
    title: row.name,
    input: { history_id: row.id },
    credits: price > 0 ? { tool: 'tts', amount: price } : null,
    apiKeyId,
    prepare: (t) => insertHistory(ctx.db, { ...row, task_id: t.id }),
  });
  return { kind: 'task', data: { task_id: task.id, history_id: row.id, credits: price, cache_hit: false } };
}

/** Marks the row failed and gives the held credits back (every failure code refunds). */
export async function failSynthesis(ctx: AppContext, row: TtsHistoryRow, code: number, message: string) {
  await updateHistory(ctx.db, row.id, {
    status: 'failed',
    failure_code: code,
    error: message,
    updated_at: ctx.clock.now(),
  });
  if (row.hold_key) await releaseCredits(ctx, row.hold_key);
}

/** A unit's audio and when each of its pieces was said. */
export type SpokenAudio = Pcm & { times: PieceTimes };

/** One sentence unit through the engine: 16-bit mono PCM and when each piece was said (word timings). */
export async function synthesizeUnit(
  ctx: AppContext,
  plan: SynthesisPlan,
  row: Pick<TtsHistoryRow, 'speed' | 'pitch' | 'volume'>,
  unit: SentenceUnit,
  signal?: AbortSignal,
): Promise<SpokenAudio> {
  const result = await ctx.engines.tts.synthesize(
    {
      segments: unit.segments,
      voice: plan.voice,
      speed: row.speed,
      pitch: row.pitch,
      volume: row.volume,
      language: plan.language,
      dictionary: plan.dictionary,
    },
    { signal },
  );
  return { samples: result.samples, sampleRate: result.sampleRate, times: pieceTimes(unit, result.timings) };
}

/**
 * One sentence unit made and heard (the speech self-check): made again at another speed when words
 * were dropped, repeated or added, flagged with what was heard when it stays wrong.
 */
export function synthesizeChecked(
  ctx: AppContext,
  plan: SynthesisPlan,
  row: Pick<TtsHistoryRow, 'speed' | 'pitch' | 'volume'>,
  unit: SentenceUnit,
  signal?: AbortSignal,
): Promise<CheckedSpeech<SpokenAudio>> {
  return speakChecked(ctx, {
    text: unit.plain,
    language: plan.language,
    engine: plan.voice.engine,
    signal,
    make: (factor) =>
      synthesizeUnit(
        ctx,
        plan,
        factor === 1 ? row : { ...row, speed: atSpeed(row.speed, factor) },
        unit,
        signal,
      ),
  });
}

/** Characters of each sentence unit, the weights its credits are shared out by. */
export const sentenceWeights = (text: string, units: Array<Pick<SentenceUnit, 'start' | 'end'>>) =>
  units.map((u) => countTtsCharacters(text.slice(u.start, u.end)));

/** The credits a synthesis keeps: flagged sentences' characters are refunded. */
export function chargedCredits(
  held: number,
  weights: number[],
  checks: Array<SentenceCheck | undefined>,
): number {
  return creditsAfterFlags(
    held,
    weights.map((weight, i) => ({ weight, flagged: checks[i]?.status === 'flagged' })),
  );
}

const ms = (samples: number, rate: number) => (samples / rate) * 1000;

function sentencesOf(
  row: Pick<TtsHistoryRow, 'text'>,
  units: SentenceUnit[],
  lengths: number[],
  rate: number,
  checks: Array<SentenceCheck | undefined> = [],
): TtsSentence[] {
  let at = 0;
  return units.map((u, i) => {
    const startMs = ms(at, rate);
    at += lengths[i];
    const check = checks[i];
    return {
      index: i,
      text: row.text.slice(u.start, u.end),
      start: u.start,
      end: u.end,
      start_ms: startMs,
      end_ms: ms(at, rate),
      ...(check ? { check } : {}),
    };
  });
}

/** The SRT of a synthesis: cues cut and timed by the subtitle rules of its language. */
export function srtOf(
  units: Array<Pick<SentenceUnit, 'pieces'>>,
  sentences: TtsSentence[],
  language: string,
  times: Array<PieceTimes | undefined> = [],
): string {
  return toSrt(speechCues(spokenWords(units, sentences, times), subtitleRulesFor(language)));
}

/**
 * Short text: synthesise sentence by sentence and answer MP3 bytes while later sentences are still
 * being made. The first sentence is made before answering, so an engine error is still an envelope.
 * The returned stream ends after the item is recorded, so a client that got all the bytes finds it.
 */
async function streamSynthesis(
  ctx: AppContext,
  row: TtsHistoryRow,
  plan: SynthesisPlan,
  units: SentenceUnit[],
  lease?: { stop(): void },
): Promise<GenerateOutcome> {
  let first: CheckedSpeech<SpokenAudio>;
  try {
    first = await synthesizeChecked(ctx, plan, row, units[0]);
  } catch (err) {
    const f = synthesisFailure(err);
    await failSynthesis(ctx, row, f.code, f.message);
    throw AppError.named(
      f.code === TtsFailureCode.UnsupportedLanguage
        ? 'err_target_language_not_supported'
        : 'err_generate_voice_failed',
      f.message,
    );
  }
  const out = new PassThrough();
  // The answer goes on while we synthesise; this work is not awaited by the caller.
  void continueStream(ctx, row, plan, units, first, out).finally(() => lease?.stop());
  return {
    kind: 'audio',
    headers: {
      'content-type': CONTENT_TYPES[row.format],
      [TTS_HEADERS.historyId]: row.id,
      [TTS_HEADERS.cacheHit]: '0',
      [TTS_HEADERS.credits]: String(row.credits),
      [TTS_HEADERS.characters]: String(row.characters),
      [TTS_HEADERS.cacheKey]: row.cache_key,
    },
    body: out,
  };
}

async function continueStream(
  ctx: AppContext,
  row: TtsHistoryRow,
  plan: SynthesisPlan,
  units: SentenceUnit[],
  first: CheckedSpeech<SpokenAudio>,
  out: PassThrough,
): Promise<void> {
  const rate = first.audio.sampleRate;
  const stored = new PassThrough();
  const key = audioKey(row, row.format);
  const storing = ctx.storage.put(key, stored, CONTENT_TYPES[row.format]);
  storing.catch(() => {});
  const emit = (chunk: Buffer) => {
    if (!out.destroyed) out.write(chunk);
    stored.write(chunk);
  };

  const lengths: number[] = [];
  const times: PieceTimes[] = [];
  const checks: Array<SentenceCheck | undefined> = [];
  try {
    if (row.format === 'mp3') {
      const encoder = createMp3Encoder({ sampleRate: rate, long: longMp3(row) });
      encoder.output.on('data', emit);
      const ended = new Promise<void>((resolve, reject) => {
        encoder.output.once('end', resolve);
        encoder.output.once('error', reject);
      });
      let made = first;
      for (let i = 0; i < units.length; i++) {
        if (i > 0) made = await synthesizeChecked(ctx, plan, row, units[i]);
        const pcm = made.audio;
        await encoder.write(pcm.samples);
        lengths.push(pcm.samples.length);
        times.push(pcm.times);
        checks.push(made.check);
      }
      await encoder.end();
      await ended;
    } else {
      const parts = [first];
      for (let i = 1; i < units.length; i++) parts.push(await synthesizeChecked(ctx, plan, row, units[i]));
      for (const p of parts) {
        lengths.push(p.audio.samples.length);
        times.push(p.audio.times);
        checks.push(p.check);
      }
      const total = lengths.reduce((a, b) => a + b, 0);
      emit(wavHeader(total * 2, rate));
      for (const p of parts) emit(pcmToBuffer(p.audio));
    }
    stored.end();
    const { size } = await storing;
    await finishSynthesis(ctx, row, units, lengths, rate, key, size, times, checks);
    out.end();
  } catch (err) {
    ctx.log.error({ err, history: row.id }, 'streamed synthesis failed');
    out.destroy(err as Error);
    stored.destroy(err as Error);
    await storing.catch(() => {});
    await ctx.storage.remove(key).catch(() => {});
    const f = synthesisFailure(err);
    await failSynthesis(ctx, row, f.code, f.message);
  }
}

export async function finishSynthesis(
  ctx: AppContext,
  row: TtsHistoryRow,
  units: SentenceUnit[],
  lengths: number[],
  rate: number,
  key: string,
  size: number,
  /** When each unit's pieces were said, from the engine's word timings (subtitles cut by them). */
  times: Array<PieceTimes | undefined> = [],
  /** Each unit's speech self-check (undefined: not heard). */
  checks: Array<SentenceCheck | undefined> = [],
) {
  const sentences = sentencesOf(row, units, lengths, rate, checks);
  // Flagged sentences keep their audio; their characters are not charged.
  const credits = chargedCredits(row.credits, sentenceWeights(row.text, units), checks);
  const plan = JSON.parse(row.options) as SynthesisPlan;
  const srt = Buffer.from(srtOf(units, sentences, plan.language, times), 'utf8');
  const srtKey = audioKey(row, 'srt');
  await ctx.storage.put(srtKey, srt, 'application/x-subrip');
  const total = lengths.reduce((a, b) => a + b, 0);
  await updateHistory(ctx.db, row.id, {
    status: 'succeeded',
    progress: 100,
    sentences_done: units.length,
    duration_ms: ms(total, rate),
    audio_key: key,
    audio_size: size,
    srt_key: srtKey,
    srt_size: srt.length,
    sentences: JSON.stringify(sentences),
    credits,
    self_check: JSON.stringify(selfCheckFigures(checks)),
    updated_at: ctx.clock.now(),
  });
  // A task's credits are the task's (captured when it succeeds); a stream holds on the row.
  if (row.hold_key) await captureCredits(ctx, row.hold_key, credits);
}

/**
 * Runs (or resumes) a long synthesis's task here, without the queue: the remaining stages of its
 * task, skipping sentences finished before. Throws what a stage throws while it has runs left.
 */
export async function runSynthesisTask(ctx: AppContext, historyId: string, signal?: AbortSignal) {
  const row = await findHistoryById(ctx.db, historyId);
  if (!row?.task_id || row.status === 'succeeded' || row.status === 'failed') return { skipped: true };
  await runTaskInline(ctx, ttsPipeline, row.task_id, signal);
  return { history_id: row.id };
}
