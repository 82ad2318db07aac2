import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { TranscriptionVerbose } from 'openai/resources/audio/transcriptions';
import { detectSilences, probeAudio, type Silence, transcodeAudioFile } from '../audio/ffmpeg.ts';
import { EngineError } from '../errors.ts';
import { aborted } from './pipeline.ts';
import { assignWords, offsetSegment, spreadWords } from './timing.ts';
import type { AsrProvider, AsrSegment, Transcript } from './types.ts';

export interface OpenAiAsrOptions {
  /** Server root, with or without /v1: 'http://gpu-box:8000'. */
  baseURL: string;
  apiKey?: string;
  /** e.g. 'whisper-1', 'Systran/faster-whisper-large-v3', 'FunAudioLLM/SenseVoiceSmall'. */
  model: string;
  /** Per request; default 10 minutes. */
  timeoutMs?: number;
  /** Retries of failed or timed-out requests (the SDK's backoff); default 2. */
  maxRetries?: number;
  /** Largest upload the server takes (OpenAI: 25 MB); larger inputs are re-encoded, then split. */
  maxUploadBytes?: number;
  /** Languages the server's model knows (it cannot tell us); default any. */
  languages?: string[] | 'any';
  label?: string;
}

const MB = 1024 * 1024;
/** Containers OpenAI accepts as they are; anything else (mkv, mov, avi…) is re-encoded first. */
const ACCEPTED = new Set([
  '.flac',
  '.m4a',
  '.mp3',
  '.mp4',
  '.mpeg',
  '.mpga',
  '.oga',
  '.ogg',
  '.wav',
  '.webm',
]);
/** 16 kHz mono MP3 at 32 kbit/s: what recognizers hear anyway, 14 MB per hour. */
const UPLOAD_BITRATE = 32_000;

/** '{root}/v1' from a base given with or without /v1 (or another version) and trailing slashes. */
export function openAiBaseUrl(baseURL: string): string {
  const root = baseURL.trim().replace(/\/+$/, '');
  return /\/v\d+$/.test(root) ? root : `${root}/v1`;
}

/** Whisper answers with language names ('chinese'); the port speaks ISO 639-1. */
const LANGUAGE_CODES: Record<string, string> = {
  chinese: 'zh',
  mandarin: 'zh',
  cantonese: 'yue',
  english: 'en',
  japanese: 'ja',
  korean: 'ko',
  french: 'fr',
  german: 'de',
  spanish: 'es',
  russian: 'ru',
  portuguese: 'pt',
  italian: 'it',
  arabic: 'ar',
  hindi: 'hi',
  thai: 'th',
  vietnamese: 'vi',
  indonesian: 'id',
  malay: 'ms',
  turkish: 'tr',
  dutch: 'nl',
};
export const languageCode = (name: string) =>
  LANGUAGE_CODES[name.trim().toLowerCase()] ?? name.trim().toLowerCase();

const ms = (seconds: number | undefined) => Math.round((seconds ?? 0) * 1000);

/**
 * verbose_json → segments. Words come at the top level and are given to the segment they fall in;
 * a segment without words (servers that give none) gets its time shared by characters.
 */
export function mapVerboseJson(answer: TranscriptionVerbose): {
  segments: AsrSegment[];
  durationMs: number;
  language?: string;
} {
  const raw = answer.segments?.length
    ? answer.segments.map((s) => ({ startMs: ms(s.start), endMs: ms(s.end), text: s.text.trim() }))
    : answer.text?.trim()
      ? [{ startMs: 0, endMs: ms(answer.duration), text: answer.text.trim() }]
      : [];
  const words = (answer.words ?? [])
    .map((w) => ({ text: w.word.trim(), startMs: ms(w.start), endMs: ms(w.end) }))
    .filter((w) => w.text);
  const perSegment = assignWords(raw, words);
  const segments = raw
    .map((s, i) => ({
      id: i,
      ...s,
      words: perSegment[i].length ? perSegment[i] : spreadWords(s.text, s.startMs, s.endMs),
    }))
    .filter((s) => s.text);
  return {
    segments: segments.map((s, id) => ({ ...s, id })),
    durationMs: ms(answer.duration),
    ...(answer.language ? { language: languageCode(answer.language) } : {}),
  };
}

/** The longest part (ms) that, at `bytesPerSecond`, stays under `maxBytes` (10 % headroom for the container and bitrate wobble). */
export const partLength = (bytesPerSecond: number, maxBytes: number) =>
  Math.max(1000, Math.floor(((maxBytes * 0.9) / bytesPerSecond) * 1000));

/**
 * Where to cut audio of `durationMs` into parts of at most `partMs`: in the middle of the last silence
 * that starts before each limit (or at the limit, if the silence runs past it), else at the limit.
 */
export function planParts(durationMs: number, partMs: number, silences: Silence[] = []) {
  const parts: Array<{ startMs: number; durationMs: number }> = [];
  let startMs = 0;
  while (durationMs - startMs > partMs) {
    const limit = startMs + partMs;
    const cuts = silences
      .filter((s) => s.startMs > startMs && s.startMs < limit)
      .map((s) => Math.min(limit, Math.round((s.startMs + s.endMs) / 2)));
    const cut = cuts.length ? Math.max(...cuts) : limit;
    parts.push({ startMs, durationMs: cut - startMs });
    startMs = cut;
  }
  parts.push({ startMs, durationMs: durationMs - startMs });
  return parts;
}

/**
 * A self-hosted (or OpenAI's own) `/v1/audio/transcriptions` through the official SDK, asking for
 * verbose_json with segment and word times.
 */
export function createOpenAiAsrProvider(options: OpenAiAsrOptions): AsrProvider {
  if (!/^https?:\/\//.test(options.baseURL ?? '')) {
    throw new EngineError(
      'engine_not_configured',
      '语音识别服务设置有误，请联系管理员',
      `invalid OpenAI-compatible transcription base URL: ${options.baseURL}`,
    );
  }
  if (!options.model) {
    throw new EngineError(
      'engine_not_configured',
      '语音识别服务设置有误，请联系管理员',
      'no transcription model name given (OPENAI_ASR_MODEL)',
    );
  }
  const baseURL = openAiBaseUrl(options.baseURL);
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const maxUploadBytes = options.maxUploadBytes ?? 25 * MB;
  const client = new OpenAI({
    baseURL,
    // Self-hosted servers often want no key; the SDK insists on one.
    apiKey: options.apiKey || 'not-needed',
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 2,
  });
  const engine = `openai-compatible:${options.model}`;

  function explain(err: unknown, signal?: AbortSignal): EngineError {
    if (err instanceof EngineError) return err;
    if (signal?.aborted || err instanceof APIUserAbortError) return aborted();
    if (err instanceof APIConnectionTimeoutError) {
      return new EngineError(
        'timeout',
        `语音识别服务超时（${timeoutMs} 毫秒）`,
        `transcription server timed out after ${timeoutMs} ms`,
        { cause: err },
      );
    }
    if (err instanceof APIConnectionError) {
      return new EngineError(
        'remote_error',
        '暂时无法连接语音识别服务，请稍后重试',
        `cannot reach transcription server ${baseURL}`,
        {
          cause: err,
        },
      );
    }
    if (err instanceof APIError) {
      const why = err.message.replace(/^\d+\s+/, '');
      const auth = err.status === 401 || err.status === 403 ? '，请检查 API 密钥' : '';
      return new EngineError(
        'remote_error',
        `语音识别服务返回错误 ${err.status}${auth}：${why}`,
        `transcription server answered ${err.status}: ${why}`,
        { cause: err },
      );
    }
    return new EngineError(
      'remote_error',
      `语音识别服务的回答无法读取：${String(err)}`,
      `unreadable transcription answer: ${String(err)}`,
      { cause: err },
    );
  }

  return {
    id: 'openai-compatible',
    label: options.label ?? options.model,
    languages: options.languages ?? 'any',
    diarization: false,
    wordTimes: true,
    async transcribe(file, { language, prompt, signal, onProgress } = {}) {
      if (signal?.aborted) throw aborted();
      const lang = language && language !== 'auto' ? language : undefined;
      const send = async (path: string) => {
        try {
          const answer = await client.audio.transcriptions.create(
            {
              file: createReadStream(path),
              model: options.model,
              response_format: 'verbose_json',
              timestamp_granularities: ['segment', 'word'],
              ...(lang ? { language: lang } : {}),
              ...(prompt ? { prompt } : {}),
            },
            { signal },
          );
          // Servers that ignore response_format answer plain text or {text}: one segment, its words spread.
          const verbose: TranscriptionVerbose =
            typeof answer === 'string' ? { text: answer, duration: 0, language: '' } : answer;
          if (!verbose.duration) verbose.duration = (await probeAudio(path)).durationMs / 1000;
          return mapVerboseJson(verbose);
        } catch (err) {
          throw explain(err, signal);
        }
      };

      const size = (await stat(file)).size;
      if (size <= maxUploadBytes && ACCEPTED.has(extname(file).toLowerCase())) {
        const { segments, durationMs, language: detected } = await send(file);
        onProgress?.(1);
        return { language: lang ?? detected ?? 'und', durationMs, segments, engine };
      }
      // Too large or a container the server may not read: the audio alone, small, cut if need be.
      const dir = await mkdtemp(join(tmpdir(), 'vw-asr-'));
      try {
        const audio = join(dir, 'audio.mp3');
        const encode = {
          format: 'mp3' as const,
          sampleRate: 16_000,
          bitrate: `${UPLOAD_BITRATE / 1000}k`,
          signal,
        };
        await transcodeAudioFile(file, audio, encode);
        const { durationMs } = await probeAudio(audio);
        // Too large still: cut in silences, so that no word is split between two requests.
        const parts =
          (await stat(audio)).size <= maxUploadBytes
            ? [{ startMs: 0, durationMs }]
            : planParts(
                durationMs,
                partLength(UPLOAD_BITRATE / 8, maxUploadBytes),
                await detectSilences(audio, { signal }),
              );
        const segments: AsrSegment[] = [];
        const detected: string[] = [];
        for (const [i, part] of parts.entries()) {
          let path = audio;
          if (parts.length > 1) {
            // One part on disk at a time, cut from the small MP3 (fast, no second decode of the video).
            path = join(dir, `part-${i}.mp3`);
            await transcodeAudioFile(audio, path, { ...encode, ...part });
          }
          const answer = await send(path);
          if (answer.language) detected.push(answer.language);
          for (const s of answer.segments) segments.push(offsetSegment(s, part.startMs, segments.length));
          if (path !== audio) await rm(path, { force: true });
          onProgress?.((i + 1) / parts.length);
        }
        return { language: lang ?? detected[0] ?? 'und', durationMs, segments, engine } satisfies Transcript;
      } catch (err) {
        throw explain(err, signal);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async close() {},
  };
}
