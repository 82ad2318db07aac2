/**
 * bench:gate — the benchmark gate of the test command (issue 31). Every figure is a ratio of the
 * product's path to a reference measured in the same run on the same machine (figures.ts), compared
 * with its baseline in baselines.json. A figure more than 25 % worse than its baseline is measured
 * again, up to twice; it fails the gate only when every attempt was worse. Prints every figure with
 * its baseline, and with --json <file> writes the figures passed and failed for the test summary.
 *
 *   npm run bench:gate                      the gate
 *   npm run bench:gate -- --only tts,ocr    some groups only (while working on them)
 *   npm run bench:gate -- --record 3        measures every figure 3 times and writes the medians as
 *                                           the new baselines (commit them with the reason)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { type Figure, GROUPS, median } from './figures.ts';

/** How much worse than its baseline a ratio may be. */
const TOLERANCE = 0.25;
/** Measurements of a figure that is worse than its baseline, after the first. */
const RETRIES = 2;

interface Baseline {
  ratio: number;
  better: 'lower' | 'higher';
  /** Why the reference is what it is, and why the baseline has its value (updated with each change). */
  reason: string;
}
const baselinesFile = path.join(import.meta.dirname, 'baselines.json');
const baselines: Record<string, Baseline> = JSON.parse(readFileSync(baselinesFile, 'utf8'));

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const record = Number(arg('--record') ?? 0);
const only = arg('--only')?.split(',');
const jsonOut = arg('--json');

/** How many times worse than the baseline (1 = the same, above 1 = worse) a ratio is. */
const worseBy = (figure: Figure, ratio: number, baseline: number) =>
  figure.better === 'lower' ? ratio / baseline : baseline / ratio;

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const started = performance.now();
console.log(`bench:gate — ratios to references measured in this run; load average ${load()}`);
const results: Array<{ id: string; passed: boolean }> = [];
const recorded: Record<string, { better: Figure['better']; ratios: number[] }> = {};
let broken = false;

for (const group of GROUPS) {
  if (only && !only.some((o) => group.name.includes(o))) continue;
  let set: Awaited<ReturnType<typeof group.start>> | undefined;
  const groupStarted = performance.now();
  try {
    set = await group.start();
    for (const figure of set.figures) {
      if (record) {
        recorded[figure.id] = { better: figure.better, ratios: [] };
        for (let i = 0; i < record; i++) {
          const m = await figure.measure();
          recorded[figure.id].ratios.push(m.ratio);
          console.log(`  ${figure.id.padEnd(28)} run ${i + 1}: ${fmt(m.ratio)}   (${m.detail})`);
        }
        continue;
      }
      const baseline = baselines[figure.id];
      if (!baseline) throw new Error(`${figure.id} has no baseline in ${baselinesFile}`);
      if (baseline.better !== figure.better) throw new Error(`${figure.id}: baseline direction differs`);
      let passed = false;
      for (let attempt = 0; attempt <= RETRIES && !passed; attempt++) {
        const m = await figure.measure();
        const worse = worseBy(figure, m.ratio, baseline.ratio);
        passed = worse <= 1 + TOLERANCE;
        const change = `${worse >= 1 ? '+' : '−'}${(Math.abs(worse - 1) * 100).toFixed(0)} %`;
        console.log(
          `${passed ? 'ok  ' : 'SLOW'} ${figure.label}: ${fmt(m.ratio)} (baseline ${fmt(baseline.ratio)}, ${figure.better} is better, ${change} ${worse >= 1 ? 'worse' : 'better'}${attempt ? `, attempt ${attempt + 1}` : ''})\n       ${m.detail}; load ${load()}`,
        );
      }
      if (!passed)
        console.log(
          `FAIL ${figure.id}: more than ${TOLERANCE * 100} % worse than its baseline ${RETRIES + 1} times`,
        );
      results.push({ id: figure.id, passed });
    }
  } catch (err) {
    // A figure that cannot be measured fails the gate, as a broken test would.
    console.log(`FAIL ${group.name}: ${err instanceof Error ? err.stack : err}`);
    results.push({ id: group.name, passed: false });
    broken = true;
  } finally {
    await set?.close().catch(() => {});
    console.log(`  (${group.name}: ${((performance.now() - groupStarted) / 1000).toFixed(0)} s)`);
  }
}

if (record) {
  for (const [id, { better, ratios }] of Object.entries(recorded)) {
    const reason = baselines[id]?.reason ?? 'to be written: what the reference is and why the value';
    baselines[id] = { ratio: Number(median(ratios).toPrecision(3)), better, reason };
    console.log(`${id}: median of ${ratios.map(fmt).join(', ')} = ${fmt(baselines[id].ratio)}`);
  }
  writeFileSync(baselinesFile, `${JSON.stringify(baselines, null, 2)}\n`);
  console.log(`baselines written to ${baselinesFile}`);
}

const failed = results.filter((r) => !r.passed).length;
const passed = results.length - failed;
console.log(
  `bench:gate: ${passed} figures within their baselines, ${failed} failed (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ passed, failed, results }));
process.exit(failed || broken ? 1 : 0);
