import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import {
  countTtsCharacters,
  type HistoryItem,
  md5,
  type SelfCheckFigures,
  type TtsSentence,
  ttsCacheKey,
} from '@vw/contract';
import {
  decodeAudio,
  encodeAudio,
  encodeWav,
  type Pcm,
  type SentenceCheck,
  transcodeStream,
} from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { TtsHistoryRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { withScratchDir } from '../../media/scratch.ts';
import { findTaskOfOwner } from '../../tasks/tasks.repo.ts';
import { deleteTask } from '../../tasks/tasks.service.ts';
import { keepHoldLease, newHoldLease } from '../credits/hold-leases.ts';
import { captureCredits, holdCredits, releaseCredits } from '../credits/ledger.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { getDictionary, planDictionary } from '../voices/dictionary.service.ts';
import { getUsableVoice } from '../voices/voices.service.ts';
import { planSentences } from '../voices/voices.text.ts';
import {
  deleteFinishedSentences,
  deleteHistoryRows,
  findAllHistoryOfOwner,
  findFinishedSentences,
  findHistoryByFile,
  findHistoryByTask,
  findHistoryOfOwner,
  findHistoryPage,
  updateHistory,
} from './tts.repo.ts';
import {
  audioKey,
  chargedCredits,
  readingOf,
  type SynthesisPlan,
  sentenceWeights,
  srtOf,
  synthesizeChecked,
} from './tts.service.ts';

const PLAY_LINK_SECONDS = 3600;
const DOWNLOAD_LINK_SECONDS = 3600;
const sec = (ms: number) => Math.floor(ms / 1000);

async function toItem(ctx: AppContext, stored: TtsHistoryRow, withSentences = false): Promise<HistoryItem> {
  const row = await withTaskState(ctx, stored);
  const files: HistoryItem['files'] = [];
  if (row.audio_key)
    files.push({ name: row.audio_key, kind: 'audio', format: row.format, size: row.audio_size });
  if (row.wav_key) files.push({ name: row.wav_key, kind: 'audio', format: 'wav', size: row.wav_size });
  if (row.srt_key) files.push({ name: row.srt_key, kind: 'srt', format: 'srt', size: row.srt_size });
  const sign = (key: string | null) =>
    key ? ctx.storage.signedUrl(key, { expiresInSeconds: PLAY_LINK_SECONDS }) : Promise.resolve('');
  return {
    history_id: row.id,
    tool: row.tool,
    name: row.name,
    text: row.text,
    text_md5: row.text_md5,
    voice_id: row.voice_id,
    voice_name: row.voice_name,
    model_id: row.model_id,
    speed: row.speed,
    pitch: row.pitch,
    volume: row.volume,
    format: row.format,
    characters: row.characters,
    credits: row.credits,
    status: row.status,
    progress: row.progress,
    failure_code: row.failure_code,
    error: row.error,
    task_id: row.task_id,
    duration_ms: row.duration_ms,
    is_stale: row.is_stale === 1,
    files,
    audio_url: await sign(row.audio_key),
    srt_url: await sign(row.srt_key),
    ...(withSentences
      ? { sentences: row.sentences ? (JSON.parse(row.sentences) as TtsSentence[]) : [] }
      : {}),
    self_check: row.self_check ? (JSON.parse(row.self_check) as SelfCheckFigures) : null,
    created_time: sec(row.created_at),
    updated_time: sec(row.updated_at),
  };
}

async function getOwnedHistory(ctx: AppContext, userId: string, id: string): Promise<TtsHistoryRow> {
  const row = await findHistoryOfOwner(ctx.db, userId, id);
  if (!row) throw AppError.named('err_not_found');
  return row;
}

export async function findHistory(
  ctx: AppContext,
  userId: string,
  query: { tool: string; page: number; page_size: number; history_id?: string },
): Promise<{ total: number; list: HistoryItem[] }> {
  if (query.history_id) {
    const row = await getOwnedHistory(ctx, userId, query.history_id);
    return { total: 1, list: [await toItem(ctx, row, true)] };
  }
  const { total, rows } = await findHistoryPage(ctx.db, userId, query.tool, query.page, query.page_size);
  return { total, list: await Promise.all(rows.map((r) => toItem(ctx, r))) };
}

export async function getTaskStatus(ctx: AppContext, userId: string, taskId: string) {
  const stored = await findHistoryByTask(ctx.db, userId, taskId);
  if (!stored) throw AppError.named('err_not_found');
  const row = await withTaskState(ctx, stored);
  return {
    task_id: row.task_id ?? row.id,
    status: row.status,
    progress: row.progress,
    sentences_done: row.sentences_done,
    sentences_total: row.sentences_total,
    failure_code: row.failure_code,
    error: row.error,
    item: await toItem(ctx, row),
  };
}

/** Rename, or keep edited text/settings with the item (the audio stays as made: marked stale). */
export async function editHistory(
  ctx: AppContext,
  userId: string,
  input: {
    history_id: string;
    name?: string;
    text?: string;
    voice_id?: string;
    model_id?: string;
    speed?: number;
    pitch?: number;
    volume?: number;
  },
): Promise<{ item: HistoryItem }> {
  const row = await getOwnedHistory(ctx, userId, input.history_id);
  const update: Partial<TtsHistoryRow> = { updated_at: ctx.clock.now() };
  if (input.name) update.name = input.name;
  let stale = false;
  if (input.text !== undefined && input.text !== row.text) {
    update.text = input.text;
    update.text_md5 = md5(input.text);
    update.characters = countTtsCharacters(input.text);
    stale = true;
  }
  if (input.voice_id && input.voice_id !== row.voice_id) {
    const voice = await getUsableVoice(ctx, userId, input.voice_id, input.model_id);
    update.voice_id = voice.row.voice_id;
    update.voice_name = voice.row.name;
    update.model_id = voice.modelId;
    stale = true;
  } else if (input.model_id && input.model_id !== row.model_id) {
    update.model_id = (await getUsableVoice(ctx, userId, row.voice_id, input.model_id)).modelId;
    stale = true;
  }
  for (const k of ['speed', 'pitch', 'volume'] as const) {
    if (input[k] !== undefined && input[k] !== row[k]) {
      update[k] = input[k];
      stale = true;
    }
  }
  if (stale) update.is_stale = 1;
  await updateHistory(ctx.db, row.id, update);
  return { item: await toItem(ctx, { ...row, ...update }) };
}

async function removeFilesOf(ctx: AppContext, row: TtsHistoryRow) {
  for (const key of [row.audio_key, row.srt_key, row.wav_key]) if (key) await ctx.storage.remove(key);
  // Rows of long syntheses from before tasks kept their sentences here.
  for (const s of await findFinishedSentences(ctx.db, row.id)) await ctx.storage.remove(s.audio_key);
  await deleteFinishedSentences(ctx.db, row.id);
  // A long synthesis's task goes with it (its working files included).
  if (row.task_id && (await findTaskOfOwner(ctx.db, row.user_id, row.task_id))) {
    await deleteTask(ctx, row.user_id, row.task_id);
  }
}

const TASK_TO_ITEM_STATUS = {
  queued: 'queued',
  running: 'running',
  paused: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'failed',
} as const;

/**
 * A long synthesis in flight reads its status and progress from its task (the one record of long
 * jobs); finished rows, streams and rows from before tasks keep their own.
 */
async function withTaskState(ctx: AppContext, row: TtsHistoryRow): Promise<TtsHistoryRow> {
  if (!row.task_id || (row.status !== 'queued' && row.status !== 'running')) return row;
  const task = await findTaskOfOwner(ctx.db, row.user_id, row.task_id);
  if (!task) return row;
  return { ...row, status: TASK_TO_ITEM_STATUS[task.status], progress: Math.floor(task.progress) };
}

/** Files first, then rows (a failed row delete leaves the item visible to retry). Running items are refused. */
export async function deleteHistory(
  ctx: AppContext,
  userId: string,
  ids: string[],
): Promise<{ deleted: number }> {
  const rows: TtsHistoryRow[] = [];
  for (const id of ids) {
    const row = await findHistoryOfOwner(ctx.db, userId, id);
    if (!row) continue;
    if (row.status === 'running' || row.status === 'queued') throw AppError.named('err_task_running');
    rows.push(row);
  }
  if (ids.length === 1 && rows.length === 0) throw AppError.named('err_not_found');
  for (const row of rows) await removeFilesOf(ctx, row);
  return {
    deleted: await deleteHistoryRows(
      ctx.db,
      userId,
      rows.map((r) => r.id),
    ),
  };
}

/** Everything a user synthesised, files included (account cancellation). */
export async function deleteAllHistoryOf(ctx: AppContext, userId: string): Promise<void> {
  const rows = await findAllHistoryOfOwner(ctx.db, userId);
  for (const row of rows) await removeFilesOf(ctx, row);
  await deleteHistoryRows(
    ctx.db,
    userId,
    rows.map((r) => r.id),
  );
}

function safeName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').slice(0, 100) || 'audio';
}

/** A signed link to one of the owner's files; MP3 audio may be asked for as WAV (converted once, kept). */
export async function getDownloadUrl(
  ctx: AppContext,
  userId: string,
  input: { name: string; format?: 'mp3' | 'wav' | 'srt'; file_name?: string },
) {
  const row = await findHistoryByFile(ctx.db, userId, input.name);
  if (!row) throw AppError.named('err_not_found');
  let key = input.name;
  const isAudio = key === row.audio_key || key === row.wav_key;
  if (input.format === 'srt' && key !== row.srt_key) throw AppError.named('err_invalid_param');
  if (input.format && input.format !== 'srt' && !isAudio) throw AppError.named('err_invalid_param');
  if (input.format === 'wav' && key !== row.wav_key && row.format !== 'wav') {
    if (!row.wav_key) {
      // ffmpeg reads the MP3 file and its WAV streams into storage: nothing whole in memory.
      const wavKey = audioKey(row, 'wav');
      const { size } = await withScratchDir(ctx, `wav-${randomUUID()}`, async (dir) =>
        ctx.storage.put(
          wavKey,
          transcodeStream(await localPathOf(ctx, row.audio_key!, dir), 'wav'),
          'audio/wav',
        ),
      );
      await updateHistory(ctx.db, row.id, { wav_key: wavKey, wav_size: size });
      row.wav_key = wavKey;
    }
    key = row.wav_key;
  } else if (input.format === 'mp3' && key !== row.audio_key) {
    key = row.audio_key!;
  }
  const ext = key.split('.').pop()!;
  const fileName = `${safeName(input.file_name?.replace(/\.[a-z0-9]+$/i, '') || row.name)}.${ext}`;
  const url = await ctx.storage.signedUrl(key, {
    expiresInSeconds: DOWNLOAD_LINK_SECONDS,
    downloadName: fileName,
  });
  return { url, file_name: fileName, expire_time: sec(ctx.clock.now()) + DOWNLOAD_LINK_SECONDS };
}

/**
 * Re-synthesises one sentence (new text or the same, with the current dictionary) and splices it into
 * the item's audio at its timings; charged for that sentence only. The audio gets a new key so cached
 * links never serve the old bytes.
 */
export async function regenerateSentence(
  ctx: AppContext,
  userId: string,
  input: { history_id: string; sentence_index: number; text?: string },
): Promise<{ item: HistoryItem; credits: number }> {
  const row = await getOwnedHistory(ctx, userId, input.history_id);
  if (row.status !== 'succeeded' || !row.audio_key || !row.sentences)
    throw AppError.named('err_task_pending');
  const sentences = JSON.parse(row.sentences) as TtsSentence[];
  const target = sentences[input.sentence_index];
  if (!target) throw AppError.named('err_invalid_param');
  const plan = JSON.parse(row.options) as SynthesisPlan;
  const newText = input.text ?? target.text;
  const characters = countTtsCharacters(newText);
  if (characters === 0) throw AppError.named('err_invalid_param', '没有要合成的文字');
  // The current dictionary (a fixed polyphone is the usual reason to regenerate).
  plan.dictionary = planDictionary(await getDictionary(ctx, userId), newText, plan.inlinePinyin);
  const units = planSentences(newText, plan.inlinePinyin, readingOf(plan));

  const price = await priceTask(ctx, 'tts', { characters });
  const holdKey = `tts:${row.id}:s${input.sentence_index}:${ctx.clock.now()}`;
  if (price > 0) {
    await holdCredits(ctx, {
      userId,
      holdKey,
      amount: price,
      tool: 'tts',
      taskId: row.id,
      taskName: `${row.name}（重新生成一句）`,
      lease: newHoldLease(ctx),
    });
  }
  // Made within this request: the process vouches for the hold while it works (hold-leases.ts).
  const lease = price > 0 ? keepHoldLease(ctx, holdKey) : undefined;
  try {
    const parts: Pcm[] = [];
    const checks: Array<SentenceCheck | undefined> = [];
    for (const u of units) {
      const made = await synthesizeChecked(ctx, plan, row, u);
      parts.push(made.audio);
      checks.push(made.check);
    }
    // The sentence's self-check: a flagged piece flags it (its characters are not charged).
    const check = checks.find((c) => c?.status === 'flagged') ?? checks.find(Boolean);
    const charged = chargedCredits(price, sentenceWeights(newText, units), checks);
    const rate = parts[0].sampleRate;
    const original = await buffer(await ctx.storage.read(row.audio_key));
    const pcm = await decodeAudio(original, rate);
    const at = (msValue: number) => Math.min(pcm.samples.length, Math.round((msValue / 1000) * rate));
    const before = pcm.samples.subarray(0, at(target.start_ms));
    const after = pcm.samples.subarray(at(target.end_ms));
    const inserted = parts.reduce((n, p) => n + p.samples.length, 0);
    const samples = new Int16Array(before.length + inserted + after.length);
    samples.set(before, 0);
    let pos = before.length;
    for (const p of parts) {
      samples.set(p.samples, pos);
      pos += p.samples.length;
    }
    samples.set(after, pos);
    const spliced: Pcm = { samples, sampleRate: rate };
    const bytes = row.format === 'wav' ? encodeWav(spliced) : await encodeAudio(spliced, { format: 'mp3' });
    const version = `-v${ctx.clock.now().toString(36)}`;
    const key = audioKey(row, row.format, version);
    await ctx.storage.put(key, bytes, row.format === 'wav' ? 'audio/wav' : 'audio/mpeg');

    const shiftMs = (inserted / rate) * 1000 - (target.end_ms - target.start_ms);
    const shiftChars = newText.length - (target.end - target.start);
    const text = row.text.slice(0, target.start) + newText + row.text.slice(target.end);
    const next = sentences.map((s, i) => {
      if (i < input.sentence_index) return s;
      if (i === input.sentence_index) {
        const { check: _old, ...rest } = s;
        return {
          ...rest,
          ...(check ? { check } : {}),
          text: newText,
          end: s.start + newText.length,
          end_ms: s.start_ms + (inserted / rate) * 1000,
        };
      }
      return {
        ...s,
        start: s.start + shiftChars,
        end: s.end + shiftChars,
        start_ms: s.start_ms + shiftMs,
        end_ms: s.end_ms + shiftMs,
      };
    });
    const all = planSentences(text, plan.inlinePinyin, readingOf(plan));
    const srt = Buffer.from(
      srtOf(
        next.map(
          (s) =>
            all.find((u) => u.start === s.start) ?? {
              pieces: [...s.text].map((ch) => ({
                text: ch,
                weight: /[\s\p{P}]/u.test(ch) ? 0 : 1,
                segment: 0,
                from: 0,
                to: 0,
              })),
            },
        ),
        next,
        plan.language,
      ),
      'utf8',
    );
    const srtKey = audioKey(row, 'srt', version);
    await ctx.storage.put(srtKey, srt, 'application/x-subrip');
    const textMd5 = md5(text);
    const update: Partial<TtsHistoryRow> = {
      text,
      text_md5: textMd5,
      characters: countTtsCharacters(text),
      credits: row.credits + charged,
      cache_key: ttsCacheKey({
        text_md5: textMd5,
        voice_id: row.voice_id,
        model_id: row.model_id,
        speed: row.speed,
      }),
      audio_key: key,
      audio_size: bytes.length,
      srt_key: srtKey,
      srt_size: srt.length,
      wav_key: null,
      wav_size: 0,
      duration_ms: (samples.length / rate) * 1000,
      sentences: JSON.stringify(next),
      options: JSON.stringify({
        ...plan,
        dictionary: { ...JSON.parse(row.options).dictionary, ...plan.dictionary },
      }),
      updated_at: ctx.clock.now(),
    };
    await updateHistory(ctx.db, row.id, update);
    for (const old of [row.audio_key, row.srt_key, row.wav_key])
      if (old) await ctx.storage.remove(old).catch(() => {});
    if (price > 0) await captureCredits(ctx, holdKey, charged);
    return { item: await toItem(ctx, { ...row, ...update } as TtsHistoryRow, true), credits: charged };
  } catch (err) {
    if (price > 0) await releaseCredits(ctx, holdKey);
    if (err instanceof AppError) throw err;
    ctx.log.error({ err, history: row.id }, 'sentence regeneration failed');
    throw AppError.named('err_generate_voice_failed');
  } finally {
    lease?.stop();
  }
}
