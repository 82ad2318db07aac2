import { openAsBlob } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { EngineError } from '../errors.ts';
import { engineFetch, serverMessage } from '../http/engine-fetch.ts';
import { runFfmpeg } from '../media/run.ts';

/**
 * Source separation (background stems for dubbing) by a self-hosted separator over HTTP
 * (protocol "vw-sep/1", docs/ARCHITECTURE.md "Dubbing stems"):
 *
 *   GET  {base}/health    → 200 {"status":"ok","model":"htdemucs"}                       (optional)
 *   POST {base}/separate  multipart/form-data:
 *        audio   the mix, WAV 16-bit stereo 44.1 kHz (required)
 *        model   the server's model name (Demucs: htdemucs, htdemucs_ft; UVR: a model file)  (optional)
 *      → 200 application/zip holding `vocals.wav` and `accompaniment.wav` (Demucs `--two-stems=vocals`
 *        names the second `no_vocals.wav`, also accepted); header X-Separator-Model names the model.
 *      → 4xx/5xx {"error":{"message":"…"}}
 *   Authorization: Bearer <SEPARATOR_API_KEY> when a key is configured.
 *
 * It fits a thin FastAPI wrapper around `demucs.api.Separator` (htdemucs, two stems) or
 * python-audio-separator's `Separator` (UVR MDX-Net / Roformer models), zipping the two stems.
 */
export interface SeparatorOptions {
  /** e.g. 'http://gpu-box:7870' */
  baseURL: string;
  apiKey?: string;
  model?: string;
  /** Shown with results, e.g. 'Demucs htdemucs'; default '分离服务'. */
  label?: string;
  /** Per request; default 20 minutes. */
  timeoutMs?: number;
}

export interface SeparatedStems {
  /** 48 kHz stereo 16-bit WAVs, the input's length. */
  vocals: string;
  accompaniment: string;
  /** The model the server names (X-Separator-Model), or the configured label. */
  model: string;
}

export interface Separator {
  id: string;
  label: string;
  separate(input: string, workDir: string, opts?: { signal?: AbortSignal }): Promise<SeparatedStems>;
}

export const HTTP_SEPARATOR_ID = 'separator-server';

/** Stem names in the answer's ZIP (any folder inside it), first match wins. */
const VOCALS = ['vocals.wav'];
const ACCOMPANIMENT = ['accompaniment.wav', 'no_vocals.wav', 'instrumental.wav'];

export function createHttpSeparator(options: SeparatorOptions): Separator {
  const base = options.baseURL.trim().replace(/\/+$/, '');
  const label = options.label ?? '分离服务';
  const timeoutMs = options.timeoutMs ?? 20 * 60_000;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    id: HTTP_SEPARATOR_ID,
    label,
    async separate(input, workDir, opts = {}) {
      const { signal } = opts;
      await mkdir(workDir, { recursive: true });
      const send = join(workDir, 'sep-send.wav');
      await runFfmpeg(
        ['-i', input, '-vn', '-map', '0:a:0', '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', '-y', send],
        { signal },
      );
      const form = new FormData();
      form.set('audio', await openAsBlob(send, { type: 'audio/wav' }), 'audio.wav');
      if (options.model) form.set('model', options.model);
      const { response, body } = await engineFetch(`${base}/separate`, {
        method: 'POST',
        body: form,
        headers,
        signal,
        timeoutMs,
        errors: {
          aborted: () => new EngineError('aborted', '人声分离已取消', 'separation aborted'),
          timedOut: () =>
            new EngineError('timeout', '人声分离服务响应超时', `separator timed out after ${timeoutMs} ms`),
          unreachable: (err) =>
            new EngineError(
              'engine_unavailable',
              '暂时无法连接人声分离服务，请稍后重试',
              `cannot reach the separator at ${base} (check SEPARATOR_URL): ${err.message}`,
            ),
          failed: (status, text) => {
            const message = serverMessage(text);
            return new EngineError(
              'remote_error',
              `人声分离服务出错（${status}）：${message}`,
              `separator answered ${status}: ${message}`,
            );
          },
        },
      });
      let entries: Record<string, Uint8Array>;
      try {
        entries = unzipSync(new Uint8Array(body));
      } catch (err) {
        throw new EngineError(
          'remote_error',
          '人声分离服务返回的不是 ZIP（应含 vocals.wav 与 accompaniment.wav）',
          `separator answer is not a ZIP: ${(err as Error).message}`,
        );
      }
      const find = (names: string[]) =>
        Object.keys(entries).find((k) => names.includes(k.split('/').at(-1)?.toLowerCase() ?? ''));
      const v = find(VOCALS);
      const a = find(ACCOMPANIMENT);
      if (!v || !a)
        throw new EngineError(
          'remote_error',
          '人声分离服务的结果缺少 vocals.wav 或 accompaniment.wav',
          `separator ZIP lacks stems: ${Object.keys(entries).join(', ')}`,
        );
      const out: Record<'vocals' | 'accompaniment', string> = { vocals: '', accompaniment: '' };
      for (const [name, key] of [
        ['vocals', v],
        ['accompaniment', a],
      ] as const) {
        const raw = join(workDir, `sep-${name}-raw.wav`);
        await writeFile(raw, entries[key]!);
        // Normalise to what the mix expects: 48 kHz stereo 16-bit.
        out[name] = join(workDir, `${name}.wav`);
        await runFfmpeg(['-i', raw, '-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le', '-y', out[name]], {
          signal,
        });
      }
      return { ...out, model: response.headers.get('x-separator-model') ?? label };
    },
  };
}
