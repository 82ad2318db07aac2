import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  countTtsCharacters,
  FREE_LEVEL,
  md5,
  stripTtsMarkup,
  TTS_HEADERS,
  TTS_SYNC_MAX_CHARS,
  TtsFailureCode,
  type TtsSentence,
  ttsCacheKey,
  ttsMaxChars,
} from '@vw/contract';
import {
  bufferToSamples,
  createAudioEncoder,
  type EngineVoice,
  isEngineError,
  isMandarinVoice,
  type Pcm,
  type PronunciationDictionary,
  pcmToBuffer,
  resolveEspeakVoice,
  toSrt,
  wavHeader,
} from '@vw/engines';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { TtsHistoryRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { defineJob } from '../../jobs/index.ts';
import { emitTaskWebhook } from '../apikeys/webhooks.service.ts';
import { captureCredits, holdCredits, releaseCredits } from '../credits/ledger.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { getSetting } from '../settings/settings.service.ts';
import { entriesUsedBy, getDictionary } from './dictionary.service.ts';
import { encoderPool } from './encoder-pool.ts';
import {
  deleteFinishedSentences,
  findCachedHistory,
  findFinishedSentences,
  findHistoryById,
  insertFinishedSentence,
  insertHistory,
  updateHistory,
} from './tts.repo.ts';
import { planSentences, type SentenceUnit } from './tts.text.ts';
import { getUsableVoice, getUserLevel } from './voices.service.ts';

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

export const audioKey = (row: Pick<TtsHistoryRow, 'user_id' | 'id'>, ext: string, version = '') =>
  `tts/${row.user_id}/${row.id}${version}.${ext}`;
const workKey = (row: Pick<TtsHistoryRow, 'user_id' | 'id'>, idx: number) =>
  `tts-work/${row.user_id}/${row.id}/${idx}.pcm`;

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

export type GenerateOutcome =
  | { kind: 'task'; data: { task_id: string; history_id: string; credits: number; cache_hit: boolean } }
  | { kind: 'sent' };

/** Returns once a sent answer is out, so Fastify sees the reply as sent and adds nothing. */
async function sent(reply: FastifyReply): Promise<GenerateOutcome> {
  if (!reply.raw.writableEnded) {
    await new Promise((resolve) => {
      reply.raw.once('finish', resolve);
      reply.raw.once('close', resolve);
    });
  }
  return { kind: 'sent' };
}

/**
 * The synthesis call: validate, answer from the cache, else hold the price, audit, and either stream
 * the audio as it is produced or start a task. Errors before the first byte are envelopes.
 */
export async function generateSpeech(
  ctx: AppContext,
  userId: string,
  input: TtsRequest,
  reply: FastifyReply,
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
  const dictionary = inlinePinyin ? entriesUsedBy(await getDictionary(ctx, userId), plain) : {};
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
      const body = await ctx.storage.read(hit.audio_key!);
      reply
        .header('content-type', CONTENT_TYPES[hit.format])
        .header(TTS_HEADERS.historyId, hit.id)
        .header(TTS_HEADERS.cacheHit, '1')
        .header(TTS_HEADERS.credits, '0')
        .header(TTS_HEADERS.characters, String(hit.characters))
        .header(TTS_HEADERS.cacheKey, cacheKey);
      await reply.send(body);
      return sent(reply);
    }
  }

  const plan: SynthesisPlan = { voice: voice.engineVoice, language, dictionary, inlinePinyin };
  const units = planSentences(input.text, inlinePinyin);
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
  };
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
    });
  }
  await insertHistory(ctx.db, row);

  if (!(await auditText(ctx, plain))) {
    await failSynthesis(ctx, row, TtsFailureCode.SensitiveContent, '内容审核未通过');
    throw AppError.named('err_audit_refused');
  }

  if (asTask) {
    const job = await ctx.jobs.enqueue(
      ttsSynthesisJob,
      { history_id: row.id },
      { ownerId: userId, idempotencyKey: `tts:${row.id}` },
    );
    await updateHistory(ctx.db, row.id, { task_id: job.id });
    return { kind: 'task', data: { task_id: job.id, history_id: row.id, credits: price, cache_hit: false } };
  }
  await streamSynthesis(ctx, row, plan, units, reply);
  return sent(reply);
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
  if (row.api_key_id && row.task_id) {
    await emitTaskWebhook(ctx, taskOf(row), 'task.failed', ttsWebhookData(row, 'failed', { code, message }));
  }
}

const taskOf = (row: TtsHistoryRow) => ({
  id: row.task_id!,
  owner_id: row.user_id,
  api_key_id: row.api_key_id,
});

/** The body of a TTS task's webhook event. */
export function ttsWebhookData(
  row: Pick<TtsHistoryRow, 'id' | 'task_id' | 'api_key_id' | 'tool' | 'characters' | 'credits'>,
  status: 'succeeded' | 'failed',
  failure?: { code: number; message: string },
) {
  return {
    task_id: row.task_id,
    history_id: row.id,
    tool: row.tool,
    status,
    api_key_id: row.api_key_id,
    characters: row.characters,
    credits: status === 'succeeded' ? row.credits : 0,
    failure_code: failure?.code ?? null,
    error: failure?.message ?? null,
  };
}

function failureOf(err: unknown): { code: number; message: string } {
  if (isEngineError(err)) {
    const unsupported = err.code === 'invalid_request' && /语言|speak/.test(err.zh + err.en);
    return {
      code: unsupported ? TtsFailureCode.UnsupportedLanguage : TtsFailureCode.GenerationFailed,
      message: err.zh,
    };
  }
  return { code: TtsFailureCode.GenerationFailed, message: '生成语音失败' };
}

/** One sentence unit through the engine: 16-bit mono PCM. */
export async function synthesizeUnit(
  ctx: AppContext,
  plan: SynthesisPlan,
  row: Pick<TtsHistoryRow, 'speed' | 'pitch' | 'volume'>,
  unit: SentenceUnit,
  signal?: AbortSignal,
): Promise<Pcm> {
  const result = await ctx.engines.synthesize(
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
  return { samples: result.samples, sampleRate: result.sampleRate };
}

const ms = (samples: number, rate: number) => (samples / rate) * 1000;

function sentencesOf(
  row: Pick<TtsHistoryRow, 'text'>,
  units: SentenceUnit[],
  lengths: number[],
  rate: number,
): TtsSentence[] {
  let at = 0;
  return units.map((u, i) => {
    const startMs = ms(at, rate);
    at += lengths[i];
    return {
      index: i,
      text: row.text.slice(u.start, u.end),
      start: u.start,
      end: u.end,
      start_ms: startMs,
      end_ms: ms(at, rate),
    };
  });
}

export function srtOf(units: Pick<SentenceUnit, 'plain'>[], sentences: TtsSentence[]): string {
  return toSrt(
    sentences.map((s, i) => ({ startMs: s.start_ms, endMs: s.end_ms, text: units[i]?.plain ?? s.text })),
  );
}

/**
 * Short text: synthesise sentence by sentence and send MP3 bytes while later sentences are still being
 * made. The first sentence is made before the headers go out, so an engine error is still an envelope.
 */
async function streamSynthesis(
  ctx: AppContext,
  row: TtsHistoryRow,
  plan: SynthesisPlan,
  units: SentenceUnit[],
  reply: FastifyReply,
): Promise<void> {
  let first: Pcm;
  try {
    first = await synthesizeUnit(ctx, plan, row, units[0]);
  } catch (err) {
    const f = failureOf(err);
    await failSynthesis(ctx, row, f.code, f.message);
    throw AppError.named(
      f.code === TtsFailureCode.UnsupportedLanguage
        ? 'err_target_language_not_supported'
        : 'err_generate_voice_failed',
      f.message,
    );
  }
  const rate = first.sampleRate;
  const out = new PassThrough();
  reply
    .header('content-type', CONTENT_TYPES[row.format])
    .header(TTS_HEADERS.historyId, row.id)
    .header(TTS_HEADERS.cacheHit, '0')
    .header(TTS_HEADERS.credits, String(row.credits))
    .header(TTS_HEADERS.characters, String(row.characters))
    .header(TTS_HEADERS.cacheKey, row.cache_key);
  // The response goes on while we synthesise; its completion is not awaited here.
  void reply.send(out);

  const stored = new PassThrough();
  const key = audioKey(row, row.format);
  const storing = ctx.storage.put(key, stored, CONTENT_TYPES[row.format]);
  storing.catch(() => {});
  const emit = (chunk: Buffer) => {
    if (!out.destroyed) out.write(chunk);
    stored.write(chunk);
  };

  const lengths: number[] = [];
  try {
    if (row.format === 'mp3') {
      const encoder = encoderPool(ctx).take(rate);
      encoder.output.on('data', emit);
      const ended = new Promise<void>((resolve, reject) => {
        encoder.output.once('end', resolve);
        encoder.output.once('error', reject);
      });
      let pcm = first;
      for (let i = 0; i < units.length; i++) {
        if (i > 0) pcm = await synthesizeUnit(ctx, plan, row, units[i]);
        await encoder.write(pcm.samples);
        lengths.push(pcm.samples.length);
      }
      await encoder.end();
      await ended;
    } else {
      const parts: Pcm[] = [first];
      for (let i = 1; i < units.length; i++) parts.push(await synthesizeUnit(ctx, plan, row, units[i]));
      for (const p of parts) lengths.push(p.samples.length);
      const total = lengths.reduce((a, b) => a + b, 0);
      emit(wavHeader(total * 2, rate));
      for (const p of parts) emit(pcmToBuffer(p));
    }
    stored.end();
    const { size } = await storing;
    await finishSynthesis(ctx, row, units, lengths, rate, key, size);
    // Ends after the item is recorded, so a client that got all the bytes finds it finished.
    out.end();
  } catch (err) {
    ctx.log.error({ err, history: row.id }, 'streamed synthesis failed');
    out.destroy(err as Error);
    stored.destroy(err as Error);
    await storing.catch(() => {});
    await ctx.storage.remove(key).catch(() => {});
    const f = failureOf(err);
    await failSynthesis(ctx, row, f.code, f.message);
  }
}

async function finishSynthesis(
  ctx: AppContext,
  row: TtsHistoryRow,
  units: SentenceUnit[],
  lengths: number[],
  rate: number,
  key: string,
  size: number,
) {
  const sentences = sentencesOf(row, units, lengths, rate);
  const srt = Buffer.from(srtOf(units, sentences), 'utf8');
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
    updated_at: ctx.clock.now(),
  });
  if (row.hold_key) await captureCredits(ctx, row.hold_key);
  if (row.api_key_id && row.task_id) {
    await emitTaskWebhook(ctx, taskOf(row), 'task.succeeded', ttsWebhookData(row, 'succeeded'));
  }
}

/**
 * Long text: every finished sentence's PCM is stored with a row in tts_sentences, so a run that was
 * cut short (crash, deploy) resumes after the last finished sentence. Then the sentences are encoded
 * in order into one file, the credits captured and the working files removed.
 */
export async function runSynthesisTask(
  ctx: AppContext,
  historyId: string,
  signal?: AbortSignal,
  progress?: (pct: number) => Promise<void>,
) {
  const row = await findHistoryById(ctx.db, historyId);
  if (!row || row.status === 'succeeded' || row.status === 'failed') return { skipped: true };
  const plan = JSON.parse(row.options) as SynthesisPlan;
  const units = planSentences(row.text, plan.inlinePinyin);
  const finished = new Map((await findFinishedSentences(ctx.db, row.id)).map((s) => [s.idx, s]));
  await updateHistory(ctx.db, row.id, {
    status: 'running',
    sentences_total: units.length,
    sentences_done: finished.size,
    updated_at: ctx.clock.now(),
  });

  let lastReport = 0;
  for (const unit of units) {
    if (finished.has(unit.index)) continue;
    if (signal?.aborted) throw new Error('aborted');
    const pcm = await synthesizeUnit(ctx, plan, row, unit, signal);
    const key = workKey(row, unit.index);
    await ctx.storage.put(key, pcmToBuffer(pcm), 'application/octet-stream');
    const entry = {
      history_id: row.id,
      idx: unit.index,
      audio_key: key,
      sample_rate: pcm.sampleRate,
      samples: pcm.samples.length,
      created_at: ctx.clock.now(),
    };
    await insertFinishedSentence(ctx.db, entry);
    finished.set(unit.index, entry);
    const pct = Math.floor((finished.size / units.length) * 90);
    await updateHistory(ctx.db, row.id, { sentences_done: finished.size, progress: pct });
    // The job row (the generic job view) is told at most twice a second.
    const now = Date.now();
    if (now - lastReport > 500 || finished.size === units.length) {
      lastReport = now;
      await progress?.(pct);
    }
  }

  const rate = finished.get(0)!.sample_rate;
  const lengths = units.map((u) => finished.get(u.index)!.samples);
  const key = audioKey(row, row.format);
  const stored = new PassThrough();
  const storing = ctx.storage.put(key, stored, CONTENT_TYPES[row.format]);
  storing.catch(() => {});
  try {
    if (row.format === 'mp3') {
      const encoder = createAudioEncoder({ format: 'mp3', sampleRate: rate, signal });
      encoder.output.pipe(stored);
      for (const unit of units) {
        const bytes = await buffer(await ctx.storage.read(finished.get(unit.index)!.audio_key));
        await encoder.write(bufferToSamples(bytes));
      }
      await encoder.end();
    } else {
      stored.write(wavHeader(lengths.reduce((a, b) => a + b, 0) * 2, rate));
      for (const unit of units)
        stored.write(await buffer(await ctx.storage.read(finished.get(unit.index)!.audio_key)));
      stored.end();
    }
    const { size } = await storing;
    await finishSynthesis(ctx, row, units, lengths, rate, key, size);
  } catch (err) {
    stored.destroy(err as Error);
    await storing.catch(() => {});
    throw err;
  }
  for (const s of finished.values()) await ctx.storage.remove(s.audio_key).catch(() => {});
  await deleteFinishedSentences(ctx.db, row.id);
  await progress?.(100);
  return { history_id: row.id };
}

/** Retried errors: anything but a refusal by the engine; the last attempt fails the task and refunds. */
export const ttsSynthesisJob = defineJob({
  name: 'tts.synthesize',
  payload: z.object({ history_id: z.string() }),
  maxAttempts: 3,
  backoffMs: 2_000,
  async handler({ history_id }, job) {
    const ctx = job.app;
    try {
      return await runSynthesisTask(ctx, history_id, job.signal, (pct) => job.progress(pct));
    } catch (err) {
      const final = job.attempt >= job.maxAttempts || (isEngineError(err) && err.code === 'invalid_request');
      if (job.signal.aborted || !final) throw err;
      const row = await findHistoryById(ctx.db, history_id);
      if (row) {
        const f = failureOf(err);
        await failSynthesis(ctx, row, f.code, f.message);
        for (const s of await findFinishedSentences(ctx.db, row.id))
          await ctx.storage.remove(s.audio_key).catch(() => {});
        await deleteFinishedSentences(ctx.db, row.id);
      }
      return { failed: true };
    }
  },
});
