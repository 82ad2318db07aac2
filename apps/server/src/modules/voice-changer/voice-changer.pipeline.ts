import { access, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { voiceChangerCalls } from '@vw/contract';
import {
  denoise,
  extractAudio,
  measureVoiceChange,
  type VcResult,
  type VcTarget,
  type VoiceChangeMeasure,
  waveformPeaks,
} from '@vw/engines';
import { z } from 'zod';
import { localPathOf } from '../../media/files.ts';
import { definePipeline, type StageContext } from '../../tasks/pipeline.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { findVoiceFor } from '../voices/voices.repo.ts';
import { pickVcEngine, vcError } from './voice-changer.engines.ts';
import { measureVoiceReference } from './voice-changer.targets.ts';

export const voiceChangerInput = voiceChangerCalls.voiceChangerOptions.extend({
  asset_id: z.string(),
  /** Resolved at creation: where the target's pitch comes from. */
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('manual') }),
    z.object({ kind: z.literal('voice'), voice_id: z.string(), name: z.string() }),
    z.object({ kind: z.literal('clone'), voice_id: z.string(), name: z.string(), median_hz: z.number() }),
  ]),
  /** The engine chosen at creation (the default resolved then), so a retry uses the same one. */
  engine: z.string(),
});
export type VoiceChangerInput = z.infer<typeof voiceChangerInput>;

/** Peaks for the A/B waveforms: 50 buckets a second is plenty for ≤ 5 minutes. */
const PEAKS_PER_SECOND = 50;
const SOURCE = 'source-48k.wav';
const PREPARED = 'prepared.wav';
const CONVERTED = 'converted.wav';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

type Ctx = StageContext<VoiceChangerInput>;

/** The asset's first audio stream as 48 kHz mono WAV in the scratch folder (made again when missing). */
async function sourceAudio(ctx: Ctx): Promise<string> {
  const out = path.join(ctx.scratchDir, SOURCE);
  if (await exists(out)) return out;
  const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, ctx.input.asset_id);
  const source = await localPathOf(ctx.app, asset.storage_key, ctx.scratchDir);
  const partial = `${out}.part.wav`;
  try {
    await extractAudio(source, partial, { rate: 48_000, channels: 1, format: 'wav', signal: ctx.signal });
    await rename(partial, out);
  } catch (err) {
    throw vcError(err);
  } finally {
    await rm(partial, { force: true });
    if (path.dirname(source) === ctx.scratchDir) await rm(source, { force: true });
  }
  return out;
}

/** What goes into the engine: the source, denoised first when asked. */
async function preparedAudio(ctx: Ctx): Promise<string> {
  const source = await sourceAudio(ctx);
  if (!ctx.input.denoise) return source;
  const out = path.join(ctx.scratchDir, PREPARED);
  if (await exists(out)) return out;
  const partial = `${out}.part.wav`;
  try {
    await denoise(source, partial, { signal: ctx.signal });
    await rename(partial, out);
  } catch (err) {
    throw vcError(err);
  } finally {
    await rm(partial, { force: true });
  }
  return out;
}

interface PrepareResult {
  target_f0_hz: number;
  target_name: string;
  reference_key: string | null;
}

export type ConvertResult = Omit<VcResult, 'file'> & {
  measured: Pick<VoiceChangeMeasure, 'f0_ratio' | 'envelope_ratio'>;
};

async function convertOnce(ctx: Ctx, prepare: PrepareResult): Promise<ConvertResult> {
  const input = await preparedAudio(ctx);
  const engine = await pickVcEngine(ctx.app, ctx.input.engine);
  const target: VcTarget = {
    pitch: prepare.target_f0_hz > 0 ? { median_hz: prepare.target_f0_hz } : undefined,
    semitones: ctx.input.pitch_shift,
    formantSemitones: ctx.input.formant_shift,
  };
  let reference: string | undefined;
  if (engine.usesReference && prepare.reference_key) {
    reference = await localPathOf(ctx.app, prepare.reference_key, ctx.scratchDir);
    target.referenceAudio = reference;
  }
  const out = path.join(ctx.scratchDir, CONVERTED);
  const partial = path.join(ctx.scratchDir, 'converted.part.wav');
  try {
    const { file: _file, ...result } = await engine.convert(input, partial, target, {
      // Denoising happened in the prepare stage (once, kept for a retry).
      denoise: false,
      keepTiming: ctx.input.keep_timing,
      workDir: ctx.scratchDir,
      signal: ctx.signal,
      onProgress: (f) => {
        ctx
          .progress(f)
          .catch((err) => ctx.app.log.warn({ err, taskId: ctx.task.id }, 'progress write failed'));
      },
    });
    // What the change did, measured the same way for every engine (shown on the result card).
    const { f0_ratio, envelope_ratio } = await measureVoiceChange(input, partial, { signal: ctx.signal });
    await rename(partial, out);
    return { ...result, denoised: ctx.input.denoise, measured: { f0_ratio, envelope_ratio } };
  } catch (err) {
    throw vcError(err);
  } finally {
    await rm(partial, { force: true });
    if (reference && path.dirname(reference) === ctx.scratchDir) await rm(reference, { force: true });
  }
}

async function saveAudio(ctx: Ctx, file: string, name: string, format: 'mp3' | 'wav') {
  const out = path.join(ctx.scratchDir, `result-${name}.${format}`);
  await extractAudio(file, out, {
    format,
    rate: format === 'mp3' ? 44_100 : 48_000,
    channels: 1,
    signal: ctx.signal,
  });
  const size = (await stat(out)).size;
  const peaks = await waveformPeaks(out, PEAKS_PER_SECOND, { signal: ctx.signal });
  const key = await ctx.saveArtifact(
    { path: out },
    { name: `${name}.${format}`, contentType: format === 'mp3' ? 'audio/mpeg' : 'audio/wav' },
  );
  const peaksKey = await ctx.saveArtifact(
    {
      bytes: Buffer.from(
        JSON.stringify({
          buckets_per_second: peaks.bucketsPerSecond,
          duration_ms: Math.round(peaks.durationMs),
          peaks: peaks.peaks,
        }),
      ),
    },
    { name: `${name}.peaks.json`, contentType: 'application/json' },
  );
  await rm(out, { force: true });
  return { key, peaks_key: peaksKey, size, format, duration_ms: Math.round(peaks.durationMs) };
}

export const voiceChangerPipeline = definePipeline<VoiceChangerInput>({
  tool: 'voice_changer',
  input: voiceChangerInput,
  stages: [
    {
      name: 'prepare',
      label: '准备音频',
      lane: 'heavy',
      weight: 2,
      attempts: 2,
      async run(ctx): Promise<PrepareResult> {
        await preparedAudio(ctx);
        await ctx.progress(0.6);
        const { target } = ctx.input;
        if (target.kind === 'manual')
          return { target_f0_hz: 0, target_name: '手动设置', reference_key: null };
        if (target.kind === 'clone') {
          return { target_f0_hz: target.median_hz, target_name: target.name, reference_key: null };
        }
        const row = await findVoiceFor(ctx.app.db, ctx.task.owner_id, target.voice_id);
        if (!row) throw vcError(new Error('target voice is gone'));
        try {
          const ref = await measureVoiceReference(ctx.app, row, ctx.signal);
          return { target_f0_hz: ref.pitch.median_hz, target_name: target.name, reference_key: ref.wavKey };
        } catch (err) {
          throw vcError(err);
        }
      },
    },
    {
      name: 'convert',
      label: '转换声音',
      lane: 'heavy',
      weight: 6,
      attempts: 2,
      async run(ctx) {
        return convertOnce(ctx, ctx.results.prepare as PrepareResult);
      },
    },
    {
      name: 'encode',
      label: '生成音频',
      lane: 'heavy',
      weight: 1,
      attempts: 2,
      async run(ctx) {
        const converted = path.join(ctx.scratchDir, CONVERTED);
        // Another worker took this stage, or the folder was swept: convert again (same settings).
        if (!(await exists(converted))) await convertOnce(ctx, ctx.results.prepare as PrepareResult);
        const title = ctx.task.title;
        const original = await saveAudio(ctx, await sourceAudio(ctx), 'original', 'mp3');
        await ctx.progress(0.4);
        const result = await saveAudio(ctx, converted, 'converted', ctx.input.format);
        await ctx.addOutput({
          name: `${title}-变声.${result.format}`,
          kind: 'audio',
          format: result.format,
          key: result.key,
          size: result.size,
        });
        await ctx.addOutput({
          name: `${title}-原声.mp3`,
          kind: 'audio',
          format: 'mp3',
          key: original.key,
          size: original.size,
        });
        await rm(path.join(ctx.scratchDir, CONVERTED), { force: true });
        return {
          original,
          converted: result,
          names: { original: `${title}-原声.mp3`, converted: `${title}-变声.${result.format}` },
        };
      },
    },
  ],
});

export type EncodeResult = {
  original: Awaited<ReturnType<typeof saveAudio>>;
  converted: Awaited<ReturnType<typeof saveAudio>>;
  names: { original: string; converted: string };
};

export async function readPeaks(ctx: Pick<StageContext<unknown>['app'], 'storage'>, key: string) {
  const chunks: Buffer[] = [];
  for await (const c of await ctx.storage.read(key)) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    buckets_per_second: number;
    duration_ms: number;
    peaks: number[];
  };
}
