import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeAudio } from '../audio/ffmpeg.ts';
import { bufferToSamples, decodeWav, type Pcm } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { engineFetch } from '../http/engine-fetch.ts';
import { createSentenceEngine } from '../tts/sentence-engine.ts';
import type { CosyVoiceVoice, GptSovitsVoice, TtsEngine } from '../tts/types.ts';
import type { CloneEngine } from './types.ts';

/*
 * Cloning servers over HTTP, in their own protocols:
 * - GPT-SoVITS `api_v2.py`: POST {url}/tts with JSON {text, text_lang, ref_audio_path, prompt_text,
 *   prompt_lang, aux_ref_audio_paths, media_type: 'wav', streaming_mode: false, speed_factor} → WAV bytes
 *   (400 with {message} on errors). `ref_audio_path` is a path on the GPT-SoVITS machine: the reference
 *   clips are copied into a folder both machines see (GPT_SOVITS_REF_DIR here, GPT_SOVITS_REMOTE_REF_DIR
 *   there when it is mounted elsewhere).
 * - CosyVoice `runtime/python/fastapi/server.py`: POST {url}/inference_zero_shot as multipart form
 *   {tts_text, prompt_text, prompt_wav (file)} → raw 16-bit mono PCM at the model's rate (22050 Hz for
 *   CosyVoice-300M, 24000 Hz for CosyVoice2: COSYVOICE_SAMPLE_RATE).
 */

const root = (url: string) => url.trim().replace(/\/+$/, '');

function checkUrl(name: string, url: string): void {
  if (!/^https?:\/\//.test(url ?? '')) {
    throw new EngineError(
      'engine_not_configured',
      `${name} 服务设置有误，请联系管理员`,
      `invalid ${name} URL: ${url}`,
    );
  }
}

/** One synthesis request to a cloning server: asked again when the server is briefly unreachable. */
async function post(
  name: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const { body } = await engineFetch(url, {
    ...init,
    signal,
    timeoutMs,
    idempotent: true,
    errors: {
      aborted: () => new EngineError('aborted', '合成已取消', 'synthesis aborted'),
      timedOut: () => new EngineError('timeout', `${name} 服务超时`, `${name} timed out`),
      unreachable: (cause) =>
        new EngineError(
          'remote_error',
          `暂时无法连接 ${name} 服务，请稍后重试`,
          `cannot reach ${name} at ${url}`,
          {
            cause,
          },
        ),
      failed: (status, text) => {
        const message = cloneServerMessage(text);
        return new EngineError(
          'remote_error',
          `${name} 服务出错（${status}）：${message}`,
          `${name} answered ${status}: ${message}`,
        );
      },
    },
  });
  return body;
}

/** GPT-SoVITS answers `{message}`, CosyVoice (FastAPI) `{detail}`; else the start of the body. */
function cloneServerMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { message?: string; detail?: unknown };
    return json.message ?? (typeof json.detail === 'string' ? json.detail : JSON.stringify(json.detail));
  } catch {
    return text.slice(0, 200);
  }
}

/** GPT-SoVITS language codes from ours ('zh-CN' → 'zh', 'yue' → 'yue', 'en-US' → 'en'). */
export function gptSovitsLang(language: string): string {
  const l = language.toLowerCase();
  if (l.startsWith('yue')) return 'yue';
  if (l.startsWith('zh') || l.startsWith('cmn')) return 'zh';
  if (l.startsWith('ja')) return 'ja';
  if (l.startsWith('ko')) return 'ko';
  return 'en';
}

export interface GptSovitsOptions {
  /** api_v2 root, e.g. http://gpu-box:9880 */
  url: string;
  /** Local folder the reference clips are copied into (shared with the GPT-SoVITS machine). */
  refDir: string;
  /** The same folder as the GPT-SoVITS machine sees it (default: refDir). */
  remoteRefDir?: string;
  timeoutMs?: number;
}

export function createGptSovitsEngines(options: GptSovitsOptions): { clone: CloneEngine; tts: TtsEngine } {
  checkUrl('GPT-SoVITS', options.url);
  const url = `${root(options.url)}/tts`;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const tts = createSentenceEngine({
    id: 'gpt-sovits',
    capabilities: {
      languages: ['zh-CN', 'en-US', 'yue', 'ja', 'ko'],
      maxTextLength: 4096,
      timings: 'sentence',
      cloning: true,
      streaming: true,
      dictionary: false,
    },
    fallbackSampleRate: 32_000,
    nativePitch: false,
    maxSentenceLength: 300,
    async synthesizeSentence(text, request, { signal }) {
      const voice = request.voice as GptSovitsVoice;
      const body = await post(
        'GPT-SoVITS',
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            text,
            text_lang: gptSovitsLang(request.language ?? voice.prompt_lang),
            ref_audio_path: voice.ref_audio_path,
            aux_ref_audio_paths: voice.aux_ref_audio_paths ?? [],
            prompt_text: voice.prompt_text,
            prompt_lang: voice.prompt_lang,
            text_split_method: 'cut5',
            batch_size: 1,
            media_type: 'wav',
            streaming_mode: false,
            speed_factor: Math.max(0.6, Math.min(1.65, request.speed ?? 1)),
          }),
        },
        timeoutMs,
        signal,
      );
      return toPcm(body, 'GPT-SoVITS');
    },
  });
  const clone: CloneEngine = {
    id: 'gpt-sovits',
    label: 'GPT-SoVITS',
    kind: 'zero-shot',
    maxReferences: 4,
    ttsEngineId: 'gpt-sovits',
    async clone({ references, voiceId, language }) {
      if (references.length === 0)
        throw new EngineError('invalid_request', '没有参考音频', 'no reference clip');
      await mkdir(options.refDir, { recursive: true });
      const files: string[] = [];
      const remote: string[] = [];
      for (const [i, ref] of references.slice(0, 4).entries()) {
        const name = `${voiceId}-${i}.wav`;
        const local = path.join(options.refDir, name);
        await copyFile(ref.path, local);
        files.push(local);
        remote.push(path.posix.join(options.remoteRefDir ?? options.refDir, name));
      }
      const main = references[0]!;
      return {
        voice: {
          engine: 'gpt-sovits',
          ref_audio_path: remote[0]!,
          aux_ref_audio_paths: remote.slice(1),
          prompt_text: main.text ?? '',
          prompt_lang: gptSovitsLang(main.language || language),
        },
        note: `GPT-SoVITS 零样本克隆，${references.length} 段参考音频`,
        files,
      };
    },
  };
  return { clone, tts };
}

export interface CosyVoiceOptions {
  /** FastAPI server root, e.g. http://gpu-box:50000 */
  url: string;
  /** Output rate of the server's model (22050 CosyVoice-300M, 24000 CosyVoice2). */
  sampleRate?: number;
  /** Folder the reference clips are kept in (uploaded with each request). */
  refDir: string;
  timeoutMs?: number;
}

export function createCosyVoiceEngines(options: CosyVoiceOptions): { clone: CloneEngine; tts: TtsEngine } {
  checkUrl('CosyVoice', options.url);
  const url = `${root(options.url)}/inference_zero_shot`;
  const rate = options.sampleRate ?? 22_050;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const tts = createSentenceEngine({
    id: 'cosyvoice',
    capabilities: {
      languages: ['zh-CN', 'en-US', 'yue', 'ja', 'ko'],
      maxTextLength: 4096,
      timings: 'sentence',
      cloning: true,
      streaming: true,
      dictionary: false,
    },
    fallbackSampleRate: rate,
    nativePitch: false,
    maxSentenceLength: 300,
    async synthesizeSentence(text, request, { signal }) {
      const voice = request.voice as CosyVoiceVoice;
      const form = new FormData();
      form.set('tts_text', text);
      form.set('prompt_text', voice.prompt_text);
      form.set(
        'prompt_wav',
        new Blob([await readFile(voice.prompt_wav)], { type: 'audio/wav' }),
        'prompt.wav',
      );
      const body = await post('CosyVoice', url, { method: 'POST', body: form }, timeoutMs, signal);
      if (body.length < 2)
        throw new EngineError('remote_error', 'CosyVoice 没有返回音频', 'CosyVoice returned no audio');
      const pcm: Pcm = {
        samples: bufferToSamples(body.subarray(0, body.length - (body.length % 2))),
        sampleRate: rate,
      };
      return pcm;
    },
  });
  const clone: CloneEngine = {
    id: 'cosyvoice',
    label: 'CosyVoice',
    kind: 'zero-shot',
    maxReferences: 1,
    ttsEngineId: 'cosyvoice',
    async clone({ references, voiceId }) {
      const main = references[0];
      if (!main) throw new EngineError('invalid_request', '没有参考音频', 'no reference clip');
      await mkdir(options.refDir, { recursive: true });
      const local = path.join(options.refDir, `${voiceId}-0.wav`);
      await copyFile(main.path, local);
      return {
        voice: { engine: 'cosyvoice', prompt_wav: local, prompt_text: main.text ?? '' },
        note: 'CosyVoice 零样本克隆（1 段参考音频）',
        files: [local],
      };
    },
  };
  return { clone, tts };
}

async function toPcm(body: Buffer, name: string): Promise<Pcm> {
  if (body.subarray(0, 4).toString('latin1') === 'RIFF') {
    try {
      return decodeWav(body);
    } catch {
      // an unusual WAV layout: let ffmpeg read it
    }
  }
  try {
    return await decodeAudio(body);
  } catch (err) {
    throw new EngineError(
      'remote_error',
      `${name} 返回的音频无法解码`,
      `${name} returned undecodable audio`,
      {
        cause: err,
      },
    );
  }
}
