import { decodeAudio } from '../audio/ffmpeg.ts';
import { decodeWav } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { engineFetch } from '../http/engine-fetch.ts';
import { createSentenceEngine } from '../tts/sentence-engine.ts';
import type { OpenAiVoice, TtsEngine } from '../tts/types.ts';

export interface OpenAiEngineOptions {
  /** Server root, with or without the trailing /v1: 'http://gpu-box:8000'. */
  baseUrl: string;
  apiKey?: string;
  /** Per sentence request; default 60 s. */
  timeoutMs?: number;
  /** Languages the server's models speak (it cannot tell us). */
  languages?: string[];
  maxTextLength?: number;
}

/** `{base}/v1/audio/speech` from a base given with or without /v1 and trailing slashes. */
export function speechUrl(baseUrl: string): string {
  const root = baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${root}/v1/audio/speech`;
}

/** The server's own explanation from an OpenAI-style error body, else the start of the body. */
function describeBody(body: string): string {
  try {
    const json = JSON.parse(body) as {
      error?: { message?: string } | string;
      detail?: unknown;
      message?: string;
    };
    const e = json.error;
    const message = typeof e === 'string' ? e : (e?.message ?? json.message ?? json.detail);
    if (message) return typeof message === 'string' ? message : JSON.stringify(message);
  } catch {
    // Not JSON: show the text itself.
  }
  return body.slice(0, 200);
}

/** Self-hosted speech servers speaking the OpenAI audio API (one request per sentence, WAV back). */
export function createOpenAiEngine(options: OpenAiEngineOptions): TtsEngine {
  if (!/^https?:\/\//.test(options.baseUrl ?? '')) {
    throw new EngineError(
      'engine_not_configured',
      '语音服务设置有误，请联系管理员',
      `invalid OpenAI-compatible base URL: ${options.baseUrl}`,
    );
  }
  const url = speechUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timedOut = () =>
    new EngineError(
      'timeout',
      `语音服务超时（${timeoutMs} 毫秒）`,
      `speech server timed out after ${timeoutMs} ms`,
    );

  return createSentenceEngine({
    id: 'openai-compatible',
    capabilities: {
      languages: options.languages ?? ['zh-CN', 'en-US'],
      maxTextLength: options.maxTextLength ?? 4096,
      timings: 'sentence',
      cloning: false,
      streaming: true,
      dictionary: false,
    },
    // OpenAI's own rate for pcm/wav output.
    fallbackSampleRate: 24_000,
    nativePitch: false,
    maxSentenceLength: 400,
    async synthesizeSentence(text, request, { signal }) {
      const voice = request.voice as OpenAiVoice;
      if (!voice.model || !voice.voice) {
        throw new EngineError(
          'invalid_request',
          '音色缺少 model 或 voice',
          'the voice needs a model and a voice name',
        );
      }
      const { body } = await engineFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: voice.model,
          input: text,
          voice: voice.voice,
          response_format: 'wav',
          speed: request.speed ?? 1,
        }),
        signal,
        timeoutMs,
        // One sentence's audio: asked again when the server is briefly unreachable.
        idempotent: true,
        errors: {
          aborted: () => new EngineError('aborted', '合成已取消', 'synthesis aborted'),
          timedOut,
          unreachable: (cause) =>
            new EngineError(
              'remote_error',
              '暂时无法连接语音服务，请稍后重试',
              `cannot reach speech server ${url}`,
              {
                cause,
              },
            ),
          broken: (cause) =>
            new EngineError('remote_error', '语音服务响应中断', 'speech server response broke off', {
              cause,
            }),
          failed: (status, text) => {
            const why = describeBody(text);
            const auth = status === 401 || status === 403 ? '，请检查 API 密钥' : '';
            return new EngineError(
              'remote_error',
              `语音服务返回错误 ${status}${auth}：${why}`,
              `speech server answered ${status}: ${why}`,
            );
          },
        },
      });
      if (body.length === 0)
        throw new EngineError('remote_error', '语音服务返回了空音频', 'speech server returned no audio');
      try {
        // Some servers ignore response_format (MP3, float WAV): ffmpeg reads whatever is not 16-bit WAV.
        return body.toString('ascii', 0, 4) === 'RIFF' && body.readUInt16LE(34) === 16
          ? decodeWav(body)
          : await decodeAudio(body, undefined, signal);
      } catch (err) {
        throw new EngineError(
          'remote_error',
          '语音服务返回的不是可识别的音频',
          'speech server returned unreadable audio',
          {
            cause: err,
          },
        );
      }
    },
  });
}
