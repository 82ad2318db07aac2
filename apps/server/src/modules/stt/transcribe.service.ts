import { probeFile, type Transcript } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { captureCredits, holdCredits, releaseCredits } from '../credits/ledger.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { getMediaLimits } from '../features/features.service.ts';
import { pickRecognizer, recognitionError } from '../projects/stages/recognize-speech.ts';

export interface TranscribeRequest {
  /** The uploaded file on disk (its extension from the sniffed bytes). */
  filePath: string;
  /** The ffmpeg demuxer of its sniffed type: the probe may open it with that one only. */
  demuxer: string;
  /** A recognizer id, or any name (OpenAI clients send 'whisper-1'): the configured recognizer answers. */
  model: string;
  language?: string;
  prompt?: string;
  apiKey: { id: string; creditLimit: number | null };
  /** Aborted when the client goes away: the recognizer stops and the credits go back. */
  signal: AbortSignal;
}

/**
 * One synchronous transcription for the public API: priced by the probed length, held before the
 * recognizer starts (1010 / err_apikey_credit_limit when short), captured when it answers, released
 * when it fails.
 */
export async function transcribeForApi(
  ctx: AppContext,
  userId: string,
  input: TranscribeRequest,
): Promise<Transcript> {
  const recognizer = pickRecognizer(ctx, input.model);
  let durationMs: number;
  try {
    const probe = await probeFile(input.filePath, { format: input.demuxer, signal: input.signal });
    if (!probe.hasAudio) throw AppError.named('err_file_not_supported', '文件中没有音频');
    durationMs = probe.durationMs;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw AppError.named('err_file_not_supported', '无法读取文件中的音频');
  }
  if (durationMs <= 0) throw AppError.named('err_file_empty', '文件中没有可识别的音频');
  const limits = await getMediaLimits(ctx, userId);
  if (durationMs > limits.max_duration_seconds * 1000) throw AppError.named('err_media_too_long');

  const id = newId('asr');
  const amount = await priceTask(ctx, 'speech_to_text', { seconds: Math.ceil(durationMs / 1000) });
  const holdKey = `asr:${id}`;
  if (amount > 0) {
    await holdCredits(ctx, {
      userId,
      holdKey,
      amount,
      tool: 'speech_to_text',
      taskId: id,
      taskName: '语音转文字（开放接口）',
      apiKey: input.apiKey,
    });
  }
  try {
    const language = input.language && input.language !== 'auto' ? input.language : undefined;
    const transcript = await recognizer.transcribe(input.filePath, {
      language,
      prompt: input.prompt,
      signal: input.signal,
    });
    if (amount > 0) await captureCredits(ctx, holdKey);
    return transcript;
  } catch (err) {
    if (amount > 0) await releaseCredits(ctx, holdKey);
    throw recognitionError(err);
  }
}
