import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { denoise } from '../audio/denoise.ts';
import { measurePitch } from '../audio/pitch.ts';
import { EngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { runFfmpeg } from '../media/run.ts';
import { lastLines, runTool, type ToolErrors } from '../process/tool.ts';
import type { VcConvertOptions, VcProvider, VcResult, VcTarget } from './types.ts';

/** Rubber Band works at the file's rate; 48 kHz mono keeps speech intact (R3 runs at ≈ 0.07 RTF here). */
const WORK_RATE = 48_000;
const MAX_SEMITONES = 24;
/** A second pass corrects the shift when the output's median F0 is further than this from the target. */
const CORRECT_ABOVE = 0.03;
/**
 * Share of a pitch move toward a target voice that the formants follow (in log frequency). Adult
 * female formants sit ~15–20 % above male ones while F0 sits ~70–90 % above: 0.35 of the pitch move
 * (×1.6 pitch → ×1.18 formants) turns a male voice into a plausible female one instead of a sped-up
 * man, and moves a same-sex target only slightly.
 */
export const FORMANT_FOLLOW = 0.35;
/** The automatic part of the formant shift stays within ±4 semitones (×0.79…×1.26). */
const MAX_AUTO_FORMANT = 4;

export const RUBBERBAND_ENGINE_ID = 'rubberband-r3';
export const RUBBERBAND_LABEL = 'Rubber Band R3';

const rubberbandErrors: ToolErrors = {
  missing: () =>
    new EngineError(
      'engine_unavailable',
      '变声组件不可用，请联系管理员',
      'rubberband not found: install rubberband-cli (apt-get install rubberband-cli)',
    ),
  aborted: () => new EngineError('aborted', '变声已取消', 'voice conversion aborted'),
  failed: (exit, stderr) => {
    const last = lastLines(stderr, 3);
    return new EngineError(
      'media_failed',
      `变声处理失败：${last}`,
      `rubberband exited with ${exit}: ${last}`,
    );
  },
};

/** Runs rubberband-cli; follows the signal and names the Debian package when it is missing. */
export function runRubberband(args: string[], signal?: AbortSignal): Promise<void> {
  return runTool('rubberband', args, {
    signal,
    stdout: 'ignore',
    stderrBytes: 2000,
    errors: rubberbandErrors,
  }).done;
}

/** Whether rubberband-cli is installed (for the tool's availability). */
export function rubberbandAvailable(): Promise<boolean> {
  return runRubberband(['-V']).then(
    () => true,
    () => false,
  );
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const ratio = (semitones: number) => 2 ** (semitones / 12);
const toWav = ['-c:a', 'pcm_s16le', '-f', 'wav', '-y'];

/** Semitones that move `fromHz` onto `toHz`, plus a manual offset, within ±24. */
export function semitonesBetween(fromHz: number, toHz: number, extra = 0): number {
  const base = fromHz > 0 && toHz > 0 ? 12 * Math.log2(toHz / fromHz) : 0;
  return clamp(base + extra, -MAX_SEMITONES, MAX_SEMITONES);
}

/** Formant semitones that go with moving `fromHz` onto `toHz` (FORMANT_FOLLOW of the move, bounded). */
export function followingFormant(fromHz: number, toHz: number, follow = FORMANT_FOLLOW): number {
  return clamp(follow * semitonesBetween(fromHz, toHz), -MAX_AUTO_FORMANT, MAX_AUTO_FORMANT);
}

/**
 * The offline voice changer: source → 48 kHz mono (RNNoise first when asked) → its median F0 measured →
 * pitch shifted by the semitones that land it on the target's median F0, the formants following part of
 * that move (followingFormant) plus the manual formant shift → output F0 measured (one corrective pass if
 * it missed by more than 3 %).
 *
 * A formant shift by k with pitch p in one Rubber Band run: resample by k first (pitch and formants ×k,
 * duration ÷k), then `rubberband -3 -F -t k -f p/k` (duration back, formants kept at ×k, pitch to p).
 */
export function createRubberbandProvider(): VcProvider {
  return {
    id: RUBBERBAND_ENGINE_ID,
    label: RUBBERBAND_LABEL,
    kind: 'offline',
    usesReference: false,
    async convert(input, output, target, opts) {
      return convertWithRubberband(input, output, target, opts);
    },
  };
}

async function convertWithRubberband(
  input: string,
  output: string,
  target: VcTarget,
  opts: VcConvertOptions,
): Promise<VcResult> {
  const { signal, workDir } = opts;
  const progress = (f: number) => opts.onProgress?.(f);
  const prepared = join(workDir, 'vc-prepared.wav');
  if (opts.denoise) await denoise(input, prepared, { signal });
  else {
    await runFfmpeg(
      ['-i', input, '-vn', '-map', '0:a:0', '-ac', '1', '-ar', String(WORK_RATE), ...toWav, prepared],
      {
        signal,
      },
    );
  }
  progress(0.2);
  const source = await measurePitch(prepared, { signal });
  progress(0.3);
  const targetHz = target.pitch?.median_hz ?? 0;
  const follow = target.formantFollow ?? FORMANT_FOLLOW;
  const formant = clamp(
    (target.formantSemitones ?? 0) + followingFormant(source.median_hz, targetHz, follow),
    -12,
    12,
  );
  const keepTiming = opts.keepTiming ?? true;
  let semitones = semitonesBetween(source.median_hz, targetHz, target.semitones ?? 0);

  const shift = async (st: number) => {
    await rm(output, { force: true });
    if (Math.abs(st) < 0.005 && Math.abs(formant) < 0.005) {
      await copyFile(prepared, output);
      return;
    }
    if (!keepTiming) {
      // Tape speed: one resample moves pitch and formants together and changes the speed.
      const rate = Math.round(WORK_RATE * ratio(st));
      await runFfmpeg(['-i', prepared, '-af', `asetrate=${rate},aresample=${WORK_RATE}`, ...toWav, output], {
        signal,
      });
      return;
    }
    if (Math.abs(formant) < 0.005) {
      await runRubberband(['-3', '-F', '-q', '-p', st.toFixed(4), prepared, output], signal);
      return;
    }
    const k = ratio(formant);
    const moved = join(workDir, 'vc-formant.wav');
    await runFfmpeg(
      [
        '-i',
        prepared,
        '-af',
        `asetrate=${Math.round(WORK_RATE * k)},aresample=${WORK_RATE}`,
        ...toWav,
        moved,
      ],
      { signal },
    );
    try {
      const f = (ratio(st) / k).toFixed(6);
      await runRubberband(['-3', '-F', '-q', '-t', k.toFixed(6), '-f', f, moved, output], signal);
    } finally {
      await rm(moved, { force: true });
    }
  };

  await shift(semitones);
  progress(0.8);
  let measured = await measurePitch(output, { signal });
  if (targetHz > 0 && source.median_hz > 0 && measured.median_hz > 0) {
    const miss = measured.median_hz / targetHz - 1;
    if (Math.abs(miss) > CORRECT_ABOVE) {
      semitones = clamp(
        semitones + 12 * Math.log2(targetHz / measured.median_hz),
        -MAX_SEMITONES,
        MAX_SEMITONES,
      );
      await shift(semitones);
      measured = await measurePitch(output, { signal });
    }
  }
  await rm(prepared, { force: true });
  progress(1);
  const probe = await probeFile(output);
  return {
    file: output,
    duration_ms: Math.round(probe.durationMs ?? 0),
    engine: RUBBERBAND_ENGINE_ID,
    label: RUBBERBAND_LABEL,
    method: 'signal',
    semitones: Math.round(semitones * 100) / 100,
    formant_semitones: Math.round((keepTiming ? formant : semitones) * 100) / 100,
    source_f0_hz: source.median_hz,
    target_f0_hz: targetHz,
    output_f0_hz: measured.median_hz,
    denoised: Boolean(opts.denoise),
  };
}
