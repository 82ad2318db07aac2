/**
 * Subtitle OCR and erasing on a generated 10-minute 720p video with 150 known Chinese cues (varied
 * lengths, every fifth bilingual, calm moving background, a few back-to-back), then on a busy one:
 * 24 yellow boxed cues (two-line ones with digits and Latin words) over a zooming fractal with heavy
 * grain. Prints per clip: characters right, split and merged cues, cues with start and end within
 * 0.2 s, recognition wall and CPU time per 10 minutes (CPU split into Node, the OCR helpers and
 * ffmpeg); for the calm clip also erasing speed (× real time, fast mode) and the share of the
 * original characters still recognised after erasing; at the end one row per clip.
 * The busy clip is near-lossless (x264 CRF 20 over heavy grain, ~58 Mbit/s): decoding it dominates
 * its CPU time, and no user uploads such a stream. So it is also recognised on a copy at a typical
 * upload's rate (x264 medium at 4 Mbit/s, BENCH_OCR_UPLOAD_MBITS; the rate reached is printed), as
 * bench:erase does: the same figures on what users send, where the re-encode's losses may cost
 * accuracy (reported, not hidden).
 *   npm run bench:ocr            (BENCH_OCR_MINUTES=2 for a shorter calm run)
 *   BENCH_OCR_BUSY_SEED=7        a busy clip tuned on (5, 7, 17; 11 and 14 were looked at too;
 *                                default 16 = the held-out clip reported, on a fractal place no other uses)
 *   BENCH_OCR_UPLOAD_MBITS=2     another upload rate for the busy clip's copy (default 4)
 *   BENCH_OCR_SKIP_CALM=1, BENCH_OCR_SKIP_BUSY=1, BENCH_OCR_SKIP_ERASE=1,
 *   BENCH_OCR_SKIP_LOSSLESS=1 (the busy clip's upload copy only)   parts left out
 * Clips are cached in $TMPDIR/vw-bench-ocr between runs (written under another name, then renamed).
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkErased,
  createOcrPool,
  detectSubtitleRegions,
  editDistance,
  eraseVideo,
  makeSubtitledClip,
  type OcrCue,
  probeVideo,
  recognizeVideo,
  runFfmpeg,
  spansFromCues,
  type TestCue,
} from '../src/index.ts';
import { makeBusyClip } from '../src/ocr/busyclip.ts';
import { cpuSplit, uploadEncode } from './support.ts';

const MINUTES = Number(process.env.BENCH_OCR_MINUTES ?? 10);
const DURATION_MS = MINUTES * 60_000;
const CUES = Math.round(15 * MINUTES);
const COMMON =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN = [
  'we',
  'go',
  'to',
  'the',
  'park',
  'today',
  'it',
  'is',
  'a',
  'good',
  'day',
  'for',
  'walking',
  'and',
  'talking',
  'with',
  'friends',
];

function makeCues(): TestCue[] {
  const r = rng(15);
  const cues: TestCue[] = [];
  const slot = DURATION_MS / CUES;
  for (let i = 0; i < CUES; i++) {
    const len = 4 + Math.floor(r() * 13);
    let zh = '';
    for (let k = 0; k < len; k++) zh += COMMON[Math.floor(r() * COMMON.length)];
    const backToBack = i % 10 === 9 && cues.length;
    const start = backToBack ? cues[cues.length - 1].end_ms : Math.round(i * slot + 200 + r() * 600);
    const end = Math.round(Math.min((i + 1) * slot - 100, start + 1500 + r() * 2000));
    const bilingual = i % 5 === 2;
    const en = Array.from({ length: 3 + Math.floor(r() * 4) }, () => EN[Math.floor(r() * EN.length)]).join(
      ' ',
    );
    cues.push({
      text: bilingual ? `${zh}\n${en}` : zh,
      start_ms: start,
      end_ms: end,
      position: 'bottom',
      lines: bilingual ? 2 : 1,
    });
  }
  return cues;
}

/** The busy clip reported: its text and fractal were never looked at while tuning (seed 11 was, on 2026-11-28). */
const HELD_OUT_SEED = 16;
/** A faint box: the picture shows through enough to hide the text from the pixel-change detector. */
const BUSY_BOX_OPACITY = 0.2;

const LATIN = [
  'Room',
  'Gate',
  'Line',
  'Bus',
  'Paris',
  'Tokyo',
  'at',
  'pm',
  'am',
  'on',
  'May',
  'June',
  'km',
  'left',
];

/** The busy clip's cues: 24 of them, every third two-line ("中文\nLatin words and digits"). */
function makeBusyCues(seed: number): TestCue[] {
  const r = rng(seed * 101);
  const cues: TestCue[] = [];
  let at = 300 + Math.round(r() * 400);
  for (let i = 0; i < 24; i++) {
    const len = 5 + Math.floor(r() * 10);
    let zh = '';
    for (let k = 0; k < len; k++) zh += COMMON[Math.floor(r() * COMMON.length)];
    if (i % 4 === 1) zh = `${zh.slice(0, 3)}${1 + Math.floor(r() * 98)}${zh.slice(3)}`;
    const latin = Array.from({ length: 3 + Math.floor(r() * 3) }, (_, k) =>
      k % 2 ? String(Math.floor(r() * 500)) : LATIN[Math.floor(r() * LATIN.length)],
    ).join(' ');
    const end = at + 1600 + Math.round(r() * 1800);
    cues.push({ text: i % 3 === 0 ? `${zh}\n${latin}` : zh, start_ms: at, end_ms: end, position: 'bottom' });
    // Every fifth cue follows the previous one without a gap.
    at = i % 5 === 3 ? end : end + 300 + Math.round(r() * 900);
  }
  return cues;
}

interface Score {
  chars: number;
  right: number;
  timed: number;
  split: number;
  merged: number;
  enChars: number;
  enRight: number;
}

const overlap = (a: { start_ms: number; end_ms: number }, b: { start_ms: number; end_ms: number }) =>
  Math.max(0, Math.min(a.end_ms, b.end_ms) - Math.max(a.start_ms, b.start_ms));

/**
 * Each truth cue against the recognised cue overlapping it most. A truth cue that is the main
 * overlap of several recognised cues was split; a recognised cue covering ≥ 30 % of two truth cues
 * merged them.
 */
function score(truth: TestCue[], zh: OcrCue[], latin: OcrCue[]): Score {
  const s: Score = { chars: 0, right: 0, timed: 0, split: 0, merged: 0, enChars: 0, enRight: 0 };
  const mainTruth = zh.map((k) =>
    truth.reduce((best, c, i) => (overlap(c, k) > (best < 0 ? 0 : overlap(truth[best], k)) ? i : best), -1),
  );
  truth.forEach((c, i) => {
    const [truthZh, truthEn] = c.text.split('\n');
    const m = zh.reduce<OcrCue | null>(
      (best, k) => (overlap(c, k) > (best ? overlap(c, best) : 0) ? k : best),
      null,
    );
    s.chars += truthZh.length;
    s.split += Math.max(0, mainTruth.filter((t) => t === i).length - 1);
    if (m) {
      s.right += Math.max(0, truthZh.length - editDistance(truthZh, m.text.replace(/\s+/g, '')));
      if (Math.abs(m.start_ms - c.start_ms) <= 200 && Math.abs(m.end_ms - c.end_ms) <= 200) s.timed++;
    }
    if (truthEn) {
      const e = latin.find((k) => overlap(c, k) > 0);
      const t = truthEn.replace(/\s+/g, '');
      s.enChars += t.length;
      if (e) s.enRight += Math.max(0, t.length - editDistance(t, e.text.replace(/\s+/g, '')));
    }
  });
  for (const k of zh) {
    const covered = truth.filter((c) => overlap(c, k) >= 0.3 * (c.end_ms - c.start_ms)).length;
    s.merged += Math.max(0, covered - 1);
  }
  return s;
}

const fmt = (n: number, d = 1) => n.toFixed(d);
const pct = (a: number, b: number) => fmt(b ? (100 * a) / b : 100);
const cacheDir = join(tmpdir(), 'vw-bench-ocr');
mkdirSync(cacheDir, { recursive: true });
const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ');
const engine = createOcrPool();

type CpuSplit = ReturnType<typeof cpuSplit>;
const cpuSince = (a: CpuSplit): CpuSplit => {
  const b = cpuSplit();
  return {
    node: b.node - a.node,
    ffmpeg: b.ffmpeg - a.ffmpeg,
    helpers: b.helpers - a.helpers,
    total: b.total - a.total,
  };
};

/** One line per recognised clip, printed together at the end. */
const rows: string[] = [];
const ROW_HEAD =
  'clip                                  Mbit/s  hanzi    English  split/merged  timed ±0.2 s   wall/10 min  CPU/10 min (Node + OCR + ffmpeg)';

/** Region detection and recognition of one clip, scored against its truth. */
async function recognise(video: string, truth: TestCue[], durationMs: number, label: string, short = label) {
  const loadBefore = load();
  let t = performance.now();
  let cpu0 = cpuSplit();
  const detected = await detectSubtitleRegions(video, { engine, samples: 12 });
  const detectS = (performance.now() - t) / 1000;
  const detectCpu = cpuSince(cpu0).total;
  const regions = detected.regions.filter((r) => r.kind === 'subtitle').slice(0, 1);
  if (!regions.length) throw new Error(`${label}: no subtitle region detected`);
  t = performance.now();
  cpu0 = cpuSplit();
  const rec = await recognizeVideo(video, { engine, regions, fps: 4 });
  const recogniseS = (performance.now() - t) / 1000;
  const cpu = cpuSince(cpu0);
  const recogniseCpu = cpu.total;
  const mbits = (await probeVideo(video)).bitRate / 1e6;
  const per10 = (v: number) => (v * 10 * 60_000) / durationMs;
  const zh = rec.tracks.find((k) => k.script === 'zh')?.cues ?? [];
  const latin = rec.tracks.find((k) => k.script === 'latin')?.cues ?? [];
  const s = score(truth, zh, latin);
  console.log(`
OCR bench — ${label}: ${fmt(durationMs / 60_000, 2)} min, ${truth.length} cues (${truth.filter((c) => c.text.includes('\n')).length} two-line)
load average before: ${loadBefore}  after: ${load()}  (2 cores)
region detection:        ${fmt(detectS)} s wall, ${fmt(detectCpu)} s CPU → ${JSON.stringify(regions.map((r) => ({ y: fmt(r.y, 3), h: fmt(r.h, 3), kind: r.kind })))}
recognition wall time:   ${fmt(recogniseS)} s = ${fmt(per10(recogniseS))} s per 10 min (target ≤ 120 s on 2 idle cores; ${rec.frames_sampled} samples, ${rec.frames_recognised} recognised)
recognition CPU time:    ${fmt(recogniseCpu)} s = ${fmt(per10(recogniseCpu))} s per 10 min (≤ 240 s fits 120 s on 2 cores): Node ${fmt(per10(cpu.node))} + OCR helpers ${fmt(per10(cpu.helpers))} + ffmpeg ${fmt(per10(cpu.ffmpeg))}
Chinese characters right: ${pct(s.right, s.chars)} %  (target ≥ 97 %; ${s.right}/${s.chars})
English characters right: ${pct(s.enRight, s.enChars)} %  (${s.enRight}/${s.enChars})
split / merged cues:      ${s.split} / ${s.merged}  (target 0 / 0; recognised ${zh.length} zh cues, ${latin.length} en cues)
cues timed within 0.2 s:  ${pct(s.timed, truth.length)} %  (target ≥ 90 %; ${s.timed}/${truth.length})`);
  if (process.env.BENCH_OCR_VERBOSE) {
    for (const k of zh) console.log(`  ${k.start_ms}–${k.end_ms} ${k.text.replace(/\n/g, ' / ')}`);
    for (const c of truth) console.log(`  truth ${c.start_ms}–${c.end_ms} ${c.text.replace(/\n/g, ' / ')}`);
  }
  rows.push(
    [
      short.padEnd(37),
      fmt(mbits).padStart(6),
      `${pct(s.right, s.chars)} %`.padStart(7),
      `${pct(s.enRight, s.enChars)} %`.padStart(8),
      `${s.split} / ${s.merged}`.padStart(13),
      `${s.timed}/${truth.length}`.padStart(13),
      `${fmt(per10(recogniseS))} s`.padStart(13),
      `${fmt(per10(recogniseCpu))} s (${fmt(per10(cpu.node))} + ${fmt(per10(cpu.helpers))} + ${fmt(per10(cpu.ffmpeg))})`.padStart(
        12,
      ),
    ].join(' '),
  );
  return { regions, zh, latin };
}

const UPLOAD_MBITS = Number(process.env.BENCH_OCR_UPLOAD_MBITS ?? 4);

/** `make` writes the clip under another name, renamed when whole: a cached clip is never partial. */
async function cached(path: string, make: (part: string) => Promise<unknown>) {
  if (existsSync(path)) return;
  const t = performance.now();
  const part = `${path}.${process.pid}.part.mp4`;
  await make(part);
  renameSync(part, path);
  console.log(`generated ${path} in ${fmt((performance.now() - t) / 1000)} s`);
}

if (!process.env.BENCH_OCR_SKIP_BUSY) {
  const seed = Number(process.env.BENCH_OCR_BUSY_SEED ?? HELD_OUT_SEED);
  const busyCues = makeBusyCues(seed);
  const busyMs = busyCues[busyCues.length - 1].end_ms + 600;
  const busy = join(cacheDir, `busy-seed${seed}-720p-v2.mp4`);
  await cached(busy, (part) =>
    makeBusyClip(part, {
      width: 1280,
      height: 720,
      duration_ms: busyMs,
      cues: busyCues,
      seed,
      boxOpacity: BUSY_BOX_OPACITY,
    }),
  );
  const name = `busy, seed ${seed}${seed === HELD_OUT_SEED ? ' (held out)' : ' (tuning)'}`;
  if (!process.env.BENCH_OCR_SKIP_LOSSLESS) {
    await recognise(
      busy,
      busyCues,
      busyMs,
      `busy background (${name}), near-lossless`,
      `${name}, near-lossless`,
    );
  }
  // The same clip at a typical upload's rate: what decoding costs on what users send.
  const upload = join(cacheDir, `busy-seed${seed}-720p-v2-upload${UPLOAD_MBITS}M.mp4`);
  await cached(upload, (part) =>
    runFfmpeg(['-i', busy, ...uploadEncode(UPLOAD_MBITS), '-an', '-y', part], { timeoutMs: 30 * 60_000 }),
  );
  await recognise(
    upload,
    busyCues,
    busyMs,
    `busy background (${name}), typical upload: x264 medium at ${UPLOAD_MBITS} Mbit/s`,
    `${name}, upload ${UPLOAD_MBITS} Mbit/s`,
  );
}

if (!process.env.BENCH_OCR_SKIP_CALM) {
  const video = join(cacheDir, `clip-${MINUTES}min-720p-v1.mp4`);
  const cues = makeCues();
  await cached(video, (part) =>
    makeSubtitledClip(part, {
      width: 1280,
      height: 720,
      duration_ms: DURATION_MS,
      background: 'moving',
      cues,
      measureBoxes: false,
    }),
  );
  const { regions, zh, latin } = await recognise(
    video,
    cues,
    DURATION_MS,
    'calm moving background',
    `calm, ${MINUTES} min`,
  );
  if (!process.env.BENCH_OCR_SKIP_ERASE) {
    const spans = spansFromCues(zh.concat(latin), { marginMs: 120, padBox: 0.004 });
    const erased = join(cacheDir, 'erased.mp4');
    let t = performance.now();
    await eraseVideo(video, erased, { method: 'fast', spans });
    const eraseS = (performance.now() - t) / 1000;
    t = performance.now();
    const check = await checkErased(erased, { engine, regions, spans, fps: 4 });
    const checkS = (performance.now() - t) / 1000;
    const totalChars = cues.reduce((n, c) => n + c.text.replace(/\s+/g, '').length, 0);
    console.log(`erasing (fast):          ${fmt(eraseS)} s = ${fmt(eraseS / (DURATION_MS / 1000), 2)} × real time (target ≤ 1×)
after erasing:           ${check.residual_chars} characters still recognised = ${fmt((100 * check.residual_chars) / totalChars, 2)} % of ${totalChars} (target ≤ 1 %); dark residue boxes: ${check.dark_residue.length}; check ${fmt(checkS)} s`);
  }
}
console.log(`\n${ROW_HEAD}\n${rows.join('\n')}`);
await engine.close();
