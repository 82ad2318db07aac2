import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../errors.ts';
import { createHelperPool } from '../process/helpers.ts';
import { lastLines } from '../process/tool.ts';
import type { SpeakerJob, speakerOperations } from './speakers-worker.ts';

/*
 * "One speaker" for the cloning sample check, with a sherpa-onnx speaker-embedding model
 * (3D-Speaker, WeSpeaker or NeMo ONNX) found under SHERPA_ONNX_MODELS_DIR: either a loose file
 * (`3dspeaker*.onnx`, `wespeaker*.onnx`, `nemo*speaker*.onnx`, `speaker-embedding*.onnx`, as sherpa-onnx
 * publishes them) or a folder named `speaker-embedding*` / `3dspeaker*` / `3d-speaker*` / `wespeaker*`
 * holding one `.onnx` file. The file is checked before anything is constructed. Voiced time of each
 * file is cut into ~3 s windows; each window's embedding is compared with its file's centroid, and each
 * file's centroid with the centroid of the other files (cosine similarity). The embeddings are computed
 * in a helper process (speakers-worker.ts), as the ASR does, so the server's event loop never waits.
 */

const NAME = /^(speaker[-_]?embedding|3d[-_]?speaker|wespeaker|nemo[-_].*speaker)/i;

export interface SpeakerModel {
  /** The `.onnx` file, or null when the folder lacks it. */
  file: string | null;
  /** The folder or file that was found. */
  where: string;
  /** Names of what is missing (['*.onnx']). */
  missing: string[];
  label: string;
}

const isFile = async (p: string) => (await stat(p).catch(() => null))?.isFile() ?? false;
const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() ?? false;

const labelOf = (name: string) =>
  /wespeaker/i.test(name)
    ? 'WeSpeaker (sherpa-onnx)'
    : /nemo/i.test(name)
      ? 'NeMo speaker (sherpa-onnx)'
      : /3d[-_]?speaker/i.test(name)
        ? '3D-Speaker (sherpa-onnx)'
        : 'Speaker embedding (sherpa-onnx)';

/**
 * The speaker-embedding models under the models folder: loose files first, then folders. A folder
 * without an `.onnx` file is listed with `missing` so the check can say what to add.
 */
export async function detectSpeakerModels(modelsDir: string): Promise<SpeakerModel[]> {
  if (!(await isDir(modelsDir))) return [];
  const found: SpeakerModel[] = [];
  const entries = (await readdir(modelsDir)).sort();
  for (const name of entries) {
    if (!NAME.test(name)) continue;
    const full = path.join(modelsDir, name);
    if (/\.onnx$/i.test(name) && (await isFile(full))) {
      found.push({ file: full, where: full, missing: [], label: labelOf(name) });
    } else if (await isDir(full)) {
      const inner = (await readdir(full)).sort();
      let file: string | null = null;
      for (const e of inner) {
        if (/\.onnx$/i.test(e) && (await isFile(path.join(full, e)))) {
          file = path.join(full, e);
          break;
        }
      }
      found.push({ file, where: full, missing: file ? [] : ['*.onnx'], label: labelOf(name) });
    }
  }
  return found.sort((a, b) => Number(!a.file) - Number(!b.file));
}

/** The first usable model, else why there is none (for the operator: English, naming what to configure). */
export async function findSpeakerModel(
  modelsDir: string | undefined,
): Promise<{ model: SpeakerModel & { file: string } } | { model: null; reason: string }> {
  const hint =
    'put a speaker-embedding model into SHERPA_ONNX_MODELS_DIR (3dspeaker_*.onnx, wespeaker_*.onnx or a speaker-embedding*/ folder)';
  if (!modelsDir) return { model: null, reason: `SHERPA_ONNX_MODELS_DIR is not set: ${hint}` };
  const models = await detectSpeakerModels(modelsDir);
  const ok = models.find((m): m is SpeakerModel & { file: string } => Boolean(m.file));
  if (ok) return { model: ok };
  const broken = models[0];
  if (broken)
    return {
      model: null,
      reason: `speaker-embedding model folder ${broken.where} lacks ${broken.missing.join(', ')}`,
    };
  return { model: null, reason: `no speaker-embedding model: ${hint}` };
}

// ---------------------------------------------------------------- windows and decision (pure)

export interface VoicedSpan {
  start_ms: number;
  end_ms: number;
}

/**
 * ~`windowMs` windows over the voiced spans: each span is cut into equal windows as close to
 * `windowMs` as possible; spans shorter than `minMs` are skipped (too short for an embedding).
 */
export function speakerWindows(spans: VoicedSpan[], windowMs = 3000, minMs = 1500): VoicedSpan[] {
  const out: VoicedSpan[] = [];
  for (const s of spans) {
    const len = s.end_ms - s.start_ms;
    if (len < minMs) continue;
    const n = Math.max(1, Math.round(len / windowMs));
    const step = len / n;
    for (let i = 0; i < n; i++)
      out.push({
        start_ms: Math.round(s.start_ms + i * step),
        end_ms: Math.round(s.start_ms + (i + 1) * step),
      });
  }
  return out;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Mean of the length-normalised vectors (the usual speaker centroid). */
export function centroid(vectors: ArrayLike<number>[]): number[] {
  const dim = vectors[0]?.length ?? 0;
  const c = new Array<number>(dim).fill(0);
  for (const v of vectors) {
    let n = 0;
    for (let i = 0; i < dim; i++) n += v[i] * v[i];
    const inv = n ? 1 / Math.sqrt(n) : 0;
    for (let i = 0; i < dim; i++) c[i] += v[i] * inv;
  }
  return c.map((x) => x / (vectors.length || 1));
}

export interface FileEmbeddings {
  name: string;
  windows: Array<VoicedSpan & { embedding: ArrayLike<number> }>;
}

export interface SpeakerOutlier {
  file: string;
  /** The window that differs, or null when a whole file differs from the others. */
  window: VoicedSpan | null;
  similarity: number;
}

export interface SpeakerVerdict {
  one: boolean;
  /** The lowest similarity seen (window ↔ own file, or file ↔ other files); 1 when nothing compared. */
  lowest: number;
  /** Where the lowest similarity was, when below the threshold (else the lowest anyway). */
  outlier: SpeakerOutlier | null;
  windows: number;
  threshold: number;
  engine: string;
  /** Files too short to compare (no window of voiced speech). */
  skipped: string[];
}

/** Default cosine threshold (3D-Speaker / WeSpeaker: same speaker ≳ 0.6, different ≲ 0.3). */
export const SPEAKER_THRESHOLD = 0.5;

/** The one-speaker decision on window embeddings of every file. */
export function judgeSpeakers(
  files: FileEmbeddings[],
  opts: { threshold?: number; engine: string },
): SpeakerVerdict {
  const threshold = opts.threshold ?? SPEAKER_THRESHOLD;
  const used = files.filter((f) => f.windows.length > 0);
  const centroids = used.map((f) => centroid(f.windows.map((w) => w.embedding)));
  let lowest = 1;
  let outlier: SpeakerOutlier | null = null;
  const see = (similarity: number, o: SpeakerOutlier) => {
    if (similarity < lowest) {
      lowest = similarity;
      outlier = o;
    }
  };
  used.forEach((f, i) => {
    for (const w of f.windows) {
      const s = cosine(w.embedding, centroids[i]!);
      see(s, { file: f.name, window: { start_ms: w.start_ms, end_ms: w.end_ms }, similarity: s });
    }
  });
  if (used.length > 1) {
    used.forEach((f, i) => {
      const others = centroid(centroids.filter((_, j) => j !== i));
      const s = cosine(centroids[i], others);
      see(s, { file: f.name, window: null, similarity: s });
    });
  }
  return {
    one: lowest >= threshold,
    lowest,
    outlier,
    windows: used.reduce((n, f) => n + f.windows.length, 0),
    threshold,
    engine: opts.engine,
    skipped: files.filter((f) => f.windows.length === 0).map((f) => f.name),
  };
}

// ---------------------------------------------------------------- running the model

/** Window embeddings of each file, computed in a helper process of its own (killed when cancelled). */
export function embedWindows(
  model: SpeakerModel & { file: string },
  files: Array<{ name: string; path: string; windows: VoicedSpan[] }>,
  opts: { signal?: AbortSignal; numThreads?: number; packageName?: string } = {},
): Promise<FileEmbeddings[]> {
  const job: SpeakerJob = {
    model: model.file,
    numThreads: opts.numThreads ?? 1,
    packageName: opts.packageName,
    files,
  };
  const helper = createHelperPool<typeof speakerOperations>({
    script: new URL('./speakers-worker.ts', import.meta.url),
    helperPerCall: true,
    ownGroup: true,
    keepStderr: true,
    errors: {
      crashed: ({ exit, stderr }) => {
        const tail = lastLines(stderr, 2) || `exit ${exit}`;
        return new EngineError(
          'model_invalid',
          `说话人向量进程异常退出：${tail}`,
          `the speaker embedding process died: ${tail}`,
        );
      },
      aborted: (signal) => signal.reason ?? new Error('aborted'),
    },
  });
  return helper.call('embed', job, { signal: opts.signal });
}

/** The whole "one speaker" check: windows over the voiced spans, embeddings, decision. */
export async function checkSpeakers(
  model: SpeakerModel & { file: string },
  files: Array<{ name: string; path: string; spans: VoicedSpan[] }>,
  opts: { signal?: AbortSignal; threshold?: number; windowMs?: number } = {},
): Promise<SpeakerVerdict> {
  const jobs = files.map((f) => ({
    name: f.name,
    path: f.path,
    windows: speakerWindows(f.spans, opts.windowMs),
  }));
  const embedded = await embedWindows(model, jobs, { signal: opts.signal });
  return judgeSpeakers(embedded, { threshold: opts.threshold, engine: model.label });
}
