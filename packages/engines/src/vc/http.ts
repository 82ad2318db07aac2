import { openAsBlob } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { denoise } from '../audio/denoise.ts';
import { measurePitch } from '../audio/pitch.ts';
import { EngineError } from '../errors.ts';
import { engineFetch, serverMessage } from '../http/engine-fetch.ts';
import { probeFile } from '../media/probe.ts';
import { runFfmpeg } from '../media/run.ts';
import { semitonesBetween } from './rubberband.ts';
import type { VcProvider } from './types.ts';

/**
 * A self-hosted voice-conversion server over HTTP (protocol "vw-vc/1", docs/ARCHITECTURE.md):
 *
 *   GET  {base}/health   → 200 {"status":"ok","model":"rvc-v2"}                        (optional)
 *   POST {base}/convert  multipart/form-data:
 *        audio           the recording, WAV 16-bit mono (required)
 *        voice           the server's voice/model id (RVC: the .pth name)             (optional)
 *        reference       a WAV of the target voice (zero-shot servers: Seed-VC)       (optional)
 *        pitch_semitones transpose, like RVC's f0up_key                               (number)
 *        formant_shift   semitones, servers without formant control ignore it          (number)
 *        keep_timing     "true" | "false"
 *      → 200 audio/wav (the converted voice); header X-VC-Model names the model used.
 *      → 4xx/5xx {"error":{"message":"…"}}
 *   Authorization: Bearer <VC_SERVER_API_KEY> when a key is configured.
 *
 * It fits a thin wrapper (≈ 50 lines of FastAPI) around rvc-python's `infer_file` (f0up_key, f0method,
 * index_rate, protect) or Seed-VC's inference script (reference + source).
 */
export interface HttpVcOptions {
  /** e.g. 'http://gpu-box:7865/vc' */
  baseURL: string;
  apiKey?: string;
  /** The server voice used when the target names none. */
  defaultVoice?: string;
  /** Shown with results, e.g. 'RVC v2'; default 'VC 服务'. */
  label?: string;
  /** Per request; default 10 minutes. */
  timeoutMs?: number;
}

export const HTTP_VC_ENGINE_ID = 'vc-server';

export function createHttpVcProvider(options: HttpVcOptions): VcProvider {
  const base = options.baseURL.trim().replace(/\/+$/, '');
  const label = options.label ?? 'VC 服务';
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    id: HTTP_VC_ENGINE_ID,
    label,
    kind: 'remote',
    usesReference: true,
    async convert(input, output, target, opts) {
      const { signal, workDir } = opts;
      const prepared = join(workDir, 'vc-send.wav');
      if (opts.denoise) await denoise(input, prepared, { signal });
      else
        await runFfmpeg(
          [
            '-i',
            input,
            '-vn',
            '-map',
            '0:a:0',
            '-ac',
            '1',
            '-ar',
            '48000',
            '-c:a',
            'pcm_s16le',
            '-y',
            prepared,
          ],
          {
            signal,
          },
        );
      opts.onProgress?.(0.15);
      const source = await measurePitch(prepared, { signal });
      const targetHz = target.pitch?.median_hz ?? 0;
      const semitones = semitonesBetween(source.median_hz, targetHz, target.semitones ?? 0);
      const form = new FormData();
      form.set('audio', await openAsBlob(prepared, { type: 'audio/wav' }), 'audio.wav');
      const voice = target.voiceId ?? options.defaultVoice;
      if (voice) form.set('voice', voice);
      if (target.referenceAudio) {
        form.set(
          'reference',
          await openAsBlob(target.referenceAudio, { type: 'audio/wav' }),
          'reference.wav',
        );
      }
      form.set('pitch_semitones', semitones.toFixed(2));
      form.set('formant_shift', String(target.formantSemitones ?? 0));
      form.set('keep_timing', String(opts.keepTiming ?? true));
      const { response, body } = await engineFetch(`${base}/convert`, {
        method: 'POST',
        body: form,
        headers,
        signal,
        timeoutMs,
        errors: {
          aborted: () => new EngineError('aborted', '变声已取消', 'voice conversion aborted'),
          timedOut: () =>
            new EngineError('timeout', '变声服务响应超时', `VC server timed out after ${timeoutMs} ms`),
          unreachable: (err) =>
            new EngineError(
              'engine_unavailable',
              '暂时无法连接变声服务，请稍后重试或换用其他变声引擎',
              `cannot reach the VC server at ${base} (check VC_SERVER_URL): ${err.message}`,
            ),
          failed: (status, text) => {
            const message = serverMessage(text);
            return new EngineError(
              'remote_error',
              `变声服务出错（${status}）：${message}`,
              `VC server answered ${status}: ${message}`,
            );
          },
        },
      });
      opts.onProgress?.(0.85);
      const received = join(workDir, 'vc-received');
      await writeFile(received, body);
      try {
        // Whatever the server sent (WAV at its rate), normalised to mono 16-bit WAV; garbage fails here.
        await runFfmpeg(['-i', received, '-vn', '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', '-y', output], {
          signal,
        });
      } catch (err) {
        throw new EngineError(
          'remote_error',
          '变声服务返回的不是可用的音频',
          `VC server sent unreadable audio: ${(err as Error).message}`,
        );
      } finally {
        await rm(received, { force: true });
        await rm(prepared, { force: true });
      }
      const model = response.headers.get('x-vc-model');
      const measured = await measurePitch(output, { signal });
      const probe = await probeFile(output);
      opts.onProgress?.(1);
      return {
        file: output,
        duration_ms: Math.round(probe.durationMs ?? 0),
        engine: HTTP_VC_ENGINE_ID,
        label: model ? `${label} · ${model}` : label,
        method: 'neural',
        semitones: Math.round(semitones * 100) / 100,
        formant_semitones: target.formantSemitones ?? 0,
        source_f0_hz: source.median_hz,
        target_f0_hz: targetHz,
        output_f0_hz: measured.median_hz,
        denoised: Boolean(opts.denoise),
      };
    },
  };
}
