/**
 * Subtitle OCR and erasing on a generated 10-minute 720p video with 150 known Chinese cues (varied
 * lengths, every fifth bilingual, moving background, a few back-to-back). Prints:
 * characters right, cues with start and end within 0.2 s, recognition wall time, erasing speed
 * (× real time, fast mode) and the share of the original characters still recognised after erasing.
 *   npm run bench:ocr            (BENCH_OCR_MINUTES=2 for a shorter run)
 * The clip is cached in $TMPDIR/vw-bench-ocr between runs.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkErased,
  createOcrPool,
  detectSubtitleRegions,
  editDistance,
  eraseVideo,
  makeSubtitledClip,
  recognizeVideo,
  spansFromCues,
  type TestCue,
} from '../src/index.ts';

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

const fmt = (n: number, d = 1) => n.toFixed(d);
const cacheDir = join(tmpdir(), 'vw-bench-ocr');
mkdirSync(cacheDir, { recursive: true });
const video = join(cacheDir, `clip-${MINUTES}min-720p-v1.mp4`);
const cues = makeCues();
const loadBefore = loadavg();

if (!existsSync(video)) {
  const t = performance.now();
  await makeSubtitledClip(video, {
    width: 1280,
    height: 720,
    duration_ms: DURATION_MS,
    background: 'moving',
    cues,
    measureBoxes: false,
  });
  console.log(`generated ${video} in ${fmt((performance.now() - t) / 1000)} s`);
}

const engine = createOcrPool();
let t = performance.now();
const detected = await detectSubtitleRegions(video, { engine, samples: 12 });
const detectS = (performance.now() - t) / 1000;
const regions = detected.regions.filter((r) => r.kind === 'subtitle').slice(0, 1);
if (!regions.length) throw new Error('no subtitle region detected');

t = performance.now();
const rec = await recognizeVideo(video, { engine, regions, fps: 4 });
const recogniseS = (performance.now() - t) / 1000;
const zh = rec.tracks.find((k) => k.script === 'zh')?.cues ?? [];
const latin = rec.tracks.find((k) => k.script === 'latin')?.cues ?? [];

// Match each truth cue to the recognised cue overlapping it most.
const overlap = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
let chars = 0;
let right = 0;
let timed = 0;
let enChars = 0;
let enRight = 0;
for (const c of cues) {
  const [truthZh, truthEn] = c.text.split('\n');
  const m = zh.reduce<(typeof zh)[number] | null>(
    (best, k) =>
      overlap(c.start_ms, c.end_ms, k.start_ms, k.end_ms) >
      (best ? overlap(c.start_ms, c.end_ms, best.start_ms, best.end_ms) : 0)
        ? k
        : best,
    null,
  );
  chars += truthZh.length;
  if (m) {
    right += Math.max(0, truthZh.length - editDistance(truthZh, m.text.replace(/\s+/g, '')));
    if (Math.abs(m.start_ms - c.start_ms) <= 200 && Math.abs(m.end_ms - c.end_ms) <= 200) timed++;
  }
  if (truthEn) {
    const e = latin.find((k) => overlap(c.start_ms, c.end_ms, k.start_ms, k.end_ms) > 0);
    const truth = truthEn.replace(/\s+/g, '');
    enChars += truth.length;
    if (e) enRight += Math.max(0, truth.length - editDistance(truth, e.text.replace(/\s+/g, '')));
  }
}

console.log(
  `recognition: ${fmt(recogniseS)} s, Chinese characters right ${fmt((100 * right) / chars)} %, cues timed ${fmt((100 * timed) / cues.length)} %`,
);
if (process.env.BENCH_OCR_SKIP_ERASE) {
  await engine.close();
  process.exit(0);
}
const spans = spansFromCues(zh.concat(latin), { marginMs: 120, padBox: 0.004 });
const erased = join(cacheDir, 'erased.mp4');
t = performance.now();
await eraseVideo(video, erased, { method: 'fast', spans });
const eraseS = (performance.now() - t) / 1000;
t = performance.now();
const check = await checkErased(erased, { engine, regions, spans, fps: 4 });
const checkS = (performance.now() - t) / 1000;
await engine.close();

const totalChars = cues.reduce((n, c) => n + c.text.replace(/\s+/g, '').length, 0);
console.log(`
OCR bench — ${MINUTES} min 1280×720, ${CUES} cues (${cues.filter((c) => c.lines === 2).length} bilingual), moving background
load average before: ${loadBefore.map((l) => fmt(l, 2)).join(' ')}  after: ${loadavg()
  .map((l) => fmt(l, 2))
  .join(' ')}
region detection:        ${fmt(detectS)} s → ${JSON.stringify(regions.map((r) => ({ y: fmt(r.y, 3), h: fmt(r.h, 3), kind: r.kind })))}
recognition wall time:   ${fmt(recogniseS)} s  (target ≤ 120 s; ${rec.frames_sampled} samples, ${rec.frames_recognised} recognised)
Chinese characters right: ${fmt((100 * right) / chars)} %  (target ≥ 97 %; ${right}/${chars})
English characters right: ${fmt(enChars ? (100 * enRight) / enChars : 100)} %  (${enRight}/${enChars})
cues timed within 0.2 s:  ${fmt((100 * timed) / cues.length)} %  (target ≥ 95 %; ${timed}/${cues.length}; recognised ${zh.length} zh cues, ${latin.length} en cues)
erasing (fast):          ${fmt(eraseS)} s = ${fmt(eraseS / (DURATION_MS / 1000), 2)} × real time (target ≤ 1×)
after erasing:           ${check.residual_chars} characters still recognised = ${fmt((100 * check.residual_chars) / totalChars, 2)} % of ${totalChars} (target ≤ 1 %); dark residue boxes: ${check.dark_residue.length}; check ${fmt(checkS)} s
`);
