/**
 * bench:voice — the voice changer on 60 s of speech (issue 16): real-time factor of the offline
 * engine (Rubber Band R3, with and without RNNoise first) and the output's median-F0 error against
 * each target. Targets: RTF ≤ 0.25 on 2 cores, F0 error ≤ 5 %. Also the shared analysis on a
 * 5-minute file (measurePitch), which the sample check of voice cloning builds on.
 * The machine is shared: the load average is printed with the figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  checkSample,
  createRubberbandProvider,
  denoise,
  measurePitch,
  measureVoiceChange,
  probeFile,
} from '@vw/engines';

const SECONDS = Number(process.env.BENCH_VOICE_SECONDS ?? 60);
const dir = mkdtempSync(path.join(tmpdir(), 'vw-bench-voice-'));
const ff = (...args: string[]) =>
  execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args, '-y']);
/** CPU seconds used so far by this process and its finished children (ffmpeg, rubberband), from /proc. */
function cpuSeconds(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime stime cutime cstime are fields 14–17 (index 11–14 after the name), in 100 Hz ticks.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

const PARAGRAPH =
  'The voice changer keeps the words and the rhythm of a recording and moves its pitch and formants ' +
  'towards the voice the user picked. Every result says which engine made it, so nobody mistakes a ' +
  'pitch and formant shift for a neural voice conversion. ';

try {
  console.log(`load average at start (1/5/15 min): ${load()}`);
  // ~60 s of a low male espeak voice at 48 kHz mono (what uploads are decoded to).
  const text = path.join(dir, 'text.txt');
  writeFileSync(text, PARAGRAPH.repeat(Math.ceil(SECONDS / 12)));
  const raw = path.join(dir, 'raw.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-p', '30', '-s', '165', '-f', text, '-w', raw]);
  const speech = path.join(dir, 'speech.wav');
  ff(
    '-i',
    raw,
    '-t',
    String(SECONDS),
    '-af',
    `apad=whole_dur=${SECONDS}`,
    '-ar',
    '48000',
    '-ac',
    '1',
    speech,
  );
  const durationS = (await probeFile(speech)).durationMs / 1000;
  const source = await measurePitch(speech);
  console.log(`source: ${durationS.toFixed(1)} s of speech, median F0 ${source.median_hz} Hz`);

  // Targets: measured references of two espeak voices (as the server measures a library voice) and a low one.
  const targets: Array<{ name: string; hz: number; envelope?: number }> = [];
  for (const [name, args] of [
    ['female (en-us+f3 -p 70)', ['-v', 'en-us+f3', '-p', '70']],
    ['child (en-us+f5 -p 90)', ['-v', 'en-us+f5', '-p', '90']],
  ] as const) {
    const ref = path.join(dir, `ref-${targets.length}.wav`);
    execFileSync('espeak-ng', [
      ...args,
      '-w',
      ref,
      'The quick brown fox jumps over the lazy dog, and then it runs back home again.',
    ]);
    // The reference voice's own envelope against the source (another sentence: a rough figure).
    const own = await measureVoiceChange(speech, ref);
    targets.push({ name, hz: (await measurePitch(ref)).median_hz, envelope: own.envelope_ratio });
  }
  targets.push({ name: 'deep (fixed 70 Hz)', hz: 70 });

  const rb = createRubberbandProvider();
  const rows: Array<Record<string, string | number>> = [];
  for (const [i, target] of targets.entries()) {
    for (const withDenoise of [false, true]) {
      if (withDenoise && i > 0) continue;
      const work = mkdtempSync(path.join(dir, 'w-'));
      const out = path.join(work, 'out.wav');
      const t0 = performance.now();
      const c0 = cpuSeconds();
      const r = await rb.convert(
        speech,
        out,
        { pitch: { median_hz: target.hz } },
        { workDir: work, denoise: withDenoise },
      );
      const seconds = (performance.now() - t0) / 1000;
      const cpu = cpuSeconds() - c0;
      const measured = (await measurePitch(out)).median_hz;
      const change = await measureVoiceChange(speech, out);
      rows.push({
        target: target.name,
        denoise: withDenoise ? 'RNNoise' : '—',
        'target F0 Hz': target.hz,
        'output F0 Hz': measured,
        'F0 error %': Number((Math.abs(measured / target.hz - 1) * 100).toFixed(2)),
        semitones: r.semitones,
        'formant st': r.formant_semitones,
        'F0 ×': change.f0_ratio,
        'envelope ×': change.envelope_ratio,
        'target voice envelope ×': target.envelope ?? '—',
        'time s': Number(seconds.toFixed(2)),
        RTF: Number((seconds / durationS).toFixed(3)),
        'CPU s': Number(cpu.toFixed(2)),
        'CPU RTF': Number((cpu / durationS).toFixed(3)),
      });
    }
  }
  console.table(rows);
  const worstRtf = Math.max(...rows.map((r) => Number(r.RTF)));
  const worstErr = Math.max(...rows.map((r) => Number(r['F0 error %'])));
  const worstCpu = Math.max(...rows.map((r) => Number(r['CPU RTF'])));
  console.log(
    `voice changer: worst RTF ${worstRtf} wall, ${worstCpu} CPU (target ≤ 0.25), worst F0 error ${worstErr} % (target ≤ 5 %)`,
  );

  // Parts on their own.
  const clean = path.join(dir, 'denoised.wav');
  let t0 = performance.now();
  await denoise(speech, clean);
  console.log(
    `RNNoise alone on ${durationS.toFixed(0)} s: ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  const five = path.join(dir, 'five-minutes.wav');
  ff('-stream_loop', '4', '-i', speech, '-t', '300', five);
  t0 = performance.now();
  const c0 = cpuSeconds();
  await measurePitch(five);
  console.log(
    `measurePitch on 5 minutes: ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(cpuSeconds() - c0).toFixed(2)} s CPU`,
  );

  // What the voice changer's result card costs: F0 and envelope change of 5 minutes against itself.
  t0 = performance.now();
  const c2 = cpuSeconds();
  await measureVoiceChange(five, five);
  console.log(
    `measureVoiceChange on 5 minutes (both files): ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(cpuSeconds() - c2).toFixed(2)} s CPU`,
  );

  // Voice cloning: the sample check of a 5-minute sample (target ≤ 2 s): levels, true peak, VAD, rules.
  t0 = performance.now();
  const c1 = cpuSeconds();
  const check = await checkSample([{ name: 'five-minutes.wav', path: five }], { kind: 'fast' });
  console.log(
    `sample check on 5 minutes: ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(cpuSeconds() - c1).toFixed(2)} s CPU (target ≤ 2 s; verdict ${check.ok ? 'ok' : 'not ok'})`,
  );

  console.log(`load average at end (1/5/15 min): ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
