import { type Levels, measureLevels } from '../audio/levels.ts';
import type { SampleFix } from './fixes.ts';
import { checkSpeakers, type SpeakerModel, type SpeakerVerdict } from './speakers.ts';

/*
 * The sample check shown before a clone is made: per file and overall, against published rules
 * (ElevenLabs IVC: −23…−18 dB RMS, true peak ≤ −3 dB; MiniMax / fast clone: 10 s – 5 min; CosyVoice:
 * ≥ 5 s of continuous speech, pauses ≤ 2 s; professional clone: ≥ 30 min).
 */

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'not_checked';

export type CheckRule =
  | 'duration'
  | 'rms'
  | 'true_peak'
  | 'clipping'
  | 'noise_floor'
  | 'snr'
  | 'speech_share'
  | 'continuous_speech'
  | 'pauses'
  | 'speaker'
  | 'language';

export interface CheckItem {
  rule: CheckRule;
  label: string;
  status: CheckStatus;
  /** What was measured, for people ('−31.2 dB'). */
  measured: string;
  /** The rule, for people ('−23 … −18 dB'). */
  expected: string;
  /** The one-click fix that addresses it, when there is one. */
  fix: SampleFix | null;
  /** What to do, in Chinese. */
  advice: string;
}

export type SampleLevels = Omit<Levels, 'speech_spans'>;

export interface FileCheck {
  name: string;
  levels: SampleLevels;
  items: CheckItem[];
  /** The fixes that would help, in the order to apply them. */
  fixes: SampleFix[];
  ok: boolean;
}

export interface SampleCheck {
  kind: 'fast' | 'professional';
  files: FileCheck[];
  overall: CheckItem[];
  total_duration_ms: number;
  total_speech_ms: number;
  /** No item failed: the sample may be used. */
  ok: boolean;
}

export const SAMPLE_RULES = {
  fast: { minMs: 10_000, maxMs: 5 * 60_000 },
  professional: { minMs: 30 * 60_000, maxMs: 5 * 3600_000 },
  rms: { min: -23, max: -18, tooQuiet: -35, tooLoud: -10 },
  truePeakMax: -3,
  clipping: { warn: 0, fail: 0.001 },
  noiseFloor: { pass: -60, warn: -45 },
  snr: { pass: 30, warn: 20 },
  speechShare: { pass: 0.6, warn: 0.4 },
  continuousMs: 5000,
  pauseMaxMs: 2000,
  edgeSilenceMaxMs: 1000,
} as const;

const fmtDb = (v: number) => `${v.toFixed(1)} dB`;
const fmtS = (ms: number) =>
  ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} 分钟` : `${(ms / 1000).toFixed(1)} 秒`;
const pct = (v: number) => `${(v * 100).toFixed(v < 0.01 && v > 0 ? 2 : 0)}%`;

/*
 * Each figure rounded as it is shown (0.1 dB, 0.1 s or 0.1 min, whole or hundredths of a percent), so a
 * rule is judged on what the user reads: never 「削波 0.00% — 建议修复」 or 「−18.0 dB」 outside −23 … −18.
 */
const perUnit = (v: number, parts: number) => Math.round(v * parts) / parts;
const shownDb = (v: number) => perUnit(v, 10);
const shownMs = (ms: number) => (ms >= 60_000 ? Math.round(ms / 6000) * 6000 : Math.round(ms / 100) * 100);
const shownShare = (v: number) => (v >= 0.01 ? perUnit(v, 100) : perUnit(v, 10_000));

function shownLevels(l: SampleLevels): SampleLevels {
  return {
    ...l,
    rms_db: shownDb(l.rms_db),
    true_peak_db: shownDb(l.true_peak_db),
    noise_floor_db: shownDb(l.noise_floor_db),
    snr_db: shownDb(l.snr_db),
    clipped_share: shownShare(l.clipped_share),
    speech_share: shownShare(l.speech_share),
    longest_speech_ms: shownMs(l.longest_speech_ms),
    longest_pause_ms: shownMs(l.longest_pause_ms),
    leading_silence_ms: shownMs(l.leading_silence_ms),
    trailing_silence_ms: shownMs(l.trailing_silence_ms),
  };
}

/** The per-file rules applied to measured levels (as they are shown). */
export function checkLevels(measured: SampleLevels): CheckItem[] {
  const levels = shownLevels(measured);
  const r = SAMPLE_RULES;
  const items: CheckItem[] = [];
  const rmsStatus: CheckStatus =
    levels.rms_db >= r.rms.min && levels.rms_db <= r.rms.max
      ? 'pass'
      : levels.rms_db < r.rms.tooQuiet || levels.rms_db > r.rms.tooLoud
        ? 'fail'
        : 'warn';
  items.push({
    rule: 'rms',
    label: '音量（RMS）',
    status: rmsStatus,
    measured: fmtDb(levels.rms_db),
    expected: `${r.rms.min} … ${r.rms.max} dB`,
    fix: rmsStatus === 'pass' ? null : 'normalize',
    advice:
      rmsStatus === 'pass'
        ? ''
        : levels.rms_db < r.rms.min
          ? '音量偏小，可一键标准化音量'
          : '音量偏大，可一键标准化音量',
  });
  const tpOk = levels.true_peak_db <= r.truePeakMax;
  items.push({
    rule: 'true_peak',
    label: '真峰值',
    status: tpOk ? 'pass' : 'warn',
    measured: fmtDb(levels.true_peak_db),
    expected: `≤ ${r.truePeakMax} dB`,
    fix: tpOk ? null : 'normalize',
    advice: tpOk ? '' : '峰值过高，标准化音量时会压到 −3 dB 以下',
  });
  const clipStatus: CheckStatus =
    levels.clipped_share > r.clipping.fail
      ? 'fail'
      : levels.clipped_share > r.clipping.warn
        ? 'warn'
        : 'pass';
  items.push({
    rule: 'clipping',
    label: '削波（爆音）',
    status: clipStatus,
    measured: pct(levels.clipped_share),
    expected: '0%',
    fix: null,
    advice: clipStatus === 'pass' ? '' : '录音过载产生削波，无法自动修复：请调低麦克风增益后重新录制',
  });
  const nfStatus: CheckStatus =
    levels.noise_floor_db <= r.noiseFloor.pass
      ? 'pass'
      : levels.noise_floor_db <= r.noiseFloor.warn
        ? 'warn'
        : 'fail';
  items.push({
    rule: 'noise_floor',
    label: '底噪',
    status: nfStatus,
    measured: fmtDb(levels.noise_floor_db),
    expected: `≤ ${r.noiseFloor.pass} dB`,
    fix: nfStatus === 'pass' ? null : 'denoise',
    advice: nfStatus === 'pass' ? '' : '背景噪声偏大，可一键降噪，或换安静的环境重录',
  });
  const snrStatus: CheckStatus =
    levels.snr_db >= r.snr.pass ? 'pass' : levels.snr_db >= r.snr.warn ? 'warn' : 'fail';
  items.push({
    rule: 'snr',
    label: '信噪比',
    status: snrStatus,
    measured: fmtDb(levels.snr_db),
    expected: `≥ ${r.snr.pass} dB`,
    fix: snrStatus === 'pass' ? null : 'denoise',
    advice: snrStatus === 'pass' ? '' : '人声与噪声的差距太小，可一键降噪',
  });
  const shareStatus: CheckStatus =
    levels.speech_share >= r.speechShare.pass
      ? 'pass'
      : levels.speech_share >= r.speechShare.warn
        ? 'warn'
        : 'fail';
  items.push({
    rule: 'speech_share',
    label: '有效语音占比',
    status: shareStatus,
    measured: pct(levels.speech_share),
    expected: `≥ ${pct(r.speechShare.pass)}`,
    fix: shareStatus === 'pass' ? null : 'trim',
    advice: shareStatus === 'pass' ? '' : '静音太多，可一键裁剪静音',
  });
  const contOk = levels.longest_speech_ms >= r.continuousMs;
  items.push({
    rule: 'continuous_speech',
    label: '连续语音',
    status: contOk ? 'pass' : 'warn',
    measured: fmtS(levels.longest_speech_ms),
    expected: `至少一段 ≥ ${r.continuousMs / 1000} 秒`,
    fix: null,
    advice: contOk ? '' : '请连续朗读至少 5 秒，不要逐字停顿',
  });
  const edge = Math.max(levels.leading_silence_ms, levels.trailing_silence_ms);
  const pauseOk = levels.longest_pause_ms <= r.pauseMaxMs && edge <= r.edgeSilenceMaxMs;
  items.push({
    rule: 'pauses',
    label: '长停顿',
    status: pauseOk ? 'pass' : 'warn',
    measured: `最长停顿 ${fmtS(levels.longest_pause_ms)}，首尾静音 ${fmtS(levels.leading_silence_ms)} / ${fmtS(levels.trailing_silence_ms)}`,
    expected: `停顿 ≤ ${r.pauseMaxMs / 1000} 秒，首尾静音 ≤ ${r.edgeSilenceMaxMs / 1000} 秒`,
    fix: pauseOk ? null : 'trim',
    advice: pauseOk ? '' : '有过长的停顿或首尾静音，可一键裁剪静音',
  });
  return items;
}

/** Fixes in the order that works: denoise first (it changes levels), then trim, then normalise. */
export function fixesFor(items: CheckItem[]): SampleFix[] {
  const wanted = new Set(items.filter((i) => i.fix && i.status !== 'pass').map((i) => i.fix!));
  return (['denoise', 'trim', 'normalize'] as const).filter((f) => wanted.has(f));
}

export interface OverallOptions {
  kind: 'fast' | 'professional';
  /**
   * The speaker-embedding verdict, or why there is none (no model: what to configure; the model
   * failed: its error). Absent or null: not checked, with the default advice.
   */
  speakers?: SpeakerVerdict | { not_checked: string } | null;
  /** Recognised language (by the configured ASR), or null when none is configured. */
  language?: { detected: string; expected?: string; engine: string } | null;
}

export function checkOverall(files: FileCheck[], opts: OverallOptions): CheckItem[] {
  const rules = SAMPLE_RULES[opts.kind];
  const total = shownMs(files.reduce((n, f) => n + f.levels.duration_ms, 0));
  const durOk = total >= rules.minMs && total <= rules.maxMs;
  const items: CheckItem[] = [
    {
      rule: 'duration',
      label: '总时长',
      status: durOk ? 'pass' : 'fail',
      measured: fmtS(total),
      expected: `${fmtS(rules.minMs)} – ${fmtS(rules.maxMs)}`,
      fix: null,
      advice: durOk
        ? ''
        : total < rules.minMs
          ? `样本太短：请再录制或上传至少 ${fmtS(rules.minMs - total)}`
          : `样本太长：请删去部分文件，总时长不超过 ${fmtS(rules.maxMs)}`,
    },
  ];
  items.push(speakerItem(opts.speakers ?? null));
  if (opts.language) {
    const same =
      !opts.language.expected || opts.language.detected.startsWith(opts.language.expected.slice(0, 2));
    items.push({
      rule: 'language',
      label: '语种',
      status: same ? 'pass' : 'warn',
      measured: `${opts.language.detected}（${opts.language.engine}）`,
      expected: opts.language.expected ?? '任意',
      fix: null,
      advice: same ? '' : '识别出的语种与所选语种不一致',
    });
  } else {
    items.push({
      rule: 'language',
      label: '语种',
      status: 'not_checked',
      measured: '未检查',
      expected: '—',
      fix: null,
      advice: '本站暂未开启语音识别，未检查语种',
    });
  }
  return items;
}

const fmtAt = (ms: number) => {
  const t = Math.round(ms / 1000);
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
};

/** The "one speaker" item from a verdict, or not checked with the reason. */
export function speakerItem(v: SpeakerVerdict | { not_checked: string } | null): CheckItem {
  const base = { rule: 'speaker' as const, label: '单一说话人', fix: null };
  if (!v || 'not_checked' in v) {
    return {
      ...base,
      status: 'not_checked',
      measured: '未检查',
      expected: '1 人',
      advice: `${v?.not_checked ?? '本站暂未开启说话人检查'}；请确认样本中只有一个人的声音`,
    };
  }
  const expected = `各段声纹相似度 ≥ ${v.threshold.toFixed(2)}`;
  if (v.windows === 0) {
    return {
      ...base,
      status: 'not_checked',
      measured: `未检查（没有足够长的语音段，${v.engine}）`,
      expected,
      advice: '语音段太短，无法比较声纹；请确认样本中只有一个人的声音',
    };
  }
  const o = v.outlier;
  const where = o
    ? `${o.file}${o.window ? ` ${fmtAt(o.window.start_ms)}–${fmtAt(o.window.end_ms)}` : '（整个文件）'}`
    : '';
  return {
    ...base,
    status: v.one ? 'pass' : 'fail',
    measured: `最低相似度 ${v.lowest.toFixed(2)}${where ? `（${where}）` : ''}，${v.windows} 段，${v.engine}`,
    expected,
    advice: v.one
      ? ''
      : o?.window
        ? `${where} 的声音与该文件其余部分不像同一个人：请删去这段或只保留要克隆的那个人的声音`
        : `${o?.file} 整个文件的声音与其他文件不像同一个人：请删去这个文件`,
  };
}

export function toFileCheck(name: string, levels: Levels): FileCheck {
  const { speech_spans: _spans, ...rest } = levels;
  const items = checkLevels(rest);
  return { name, levels: rest, items, fixes: fixesFor(items), ok: items.every((i) => i.status !== 'fail') };
}

/** Checks each file and the whole sample. */
export async function checkSample(
  files: Array<{ name: string; path: string }>,
  opts: OverallOptions & {
    signal?: AbortSignal;
    /** A speaker-embedding model (findSpeakerModel): "one speaker" is checked with it when given. */
    speakerModel?: (SpeakerModel & { file: string }) | null;
  },
): Promise<SampleCheck> {
  const checks: FileCheck[] = [];
  const spans: Array<Levels['speech_spans']> = [];
  for (const f of files) {
    const levels = await measureLevels(f.path, { signal: opts.signal });
    spans.push(levels.speech_spans);
    checks.push(toFileCheck(f.name, levels));
  }
  let speakers = opts.speakers ?? null;
  if (opts.speakerModel) {
    try {
      speakers = await checkSpeakers(
        opts.speakerModel,
        files.map((f, i) => ({ name: f.name, path: f.path, spans: spans[i] })),
        { signal: opts.signal },
      );
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      speakers = { not_checked: `说话人检查失败：${(err as { zh?: string }).zh ?? String(err)}` };
    }
  }
  const overall = checkOverall(checks, { ...opts, speakers });
  return {
    kind: opts.kind,
    files: checks,
    overall,
    total_duration_ms: checks.reduce((n, f) => n + f.levels.duration_ms, 0),
    total_speech_ms: checks.reduce((n, f) => n + Math.round(f.levels.duration_ms * f.levels.speech_share), 0),
    ok: checks.every((f) => f.ok) && overall.every((i) => i.status !== 'fail'),
  };
}
