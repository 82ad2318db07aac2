import { readFile, rm } from 'node:fs/promises';
import {
  type CloneEngine,
  type CloneReference,
  checkSample,
  type EngineVoice,
  encodeAudio,
  measureProfile,
  pickReferenceClips,
  type ReferenceClip,
  type SampleCheck,
  spokenText,
  type VoiceProfile,
} from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { ENGINE_FAILURES, engineAppError } from '../../engine-errors.ts';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { recognitionError } from '../projects/stages/recognize-speech.ts';

/*
 * The work of voice cloning: sample checks on stored files, reference clips, the candidates each
 * clone engine makes, previews. Services decide who may do what; this file does it.
 */

export interface CandidateRecord {
  index: number;
  engine: string;
  engine_label: string;
  tts_engine: string;
  voice: EngineVoice;
  note: string;
  /** Files on this machine the voice reads at synthesis time (removed with the clone). */
  files: string[];
  reference: number;
}

export interface ReferenceRecord {
  key: string;
  source: string;
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  score: number;
  text: string | null;
}

/** The cloning engine named (or the preferred one), or err_interface_unavailable saying why not. */
export function pickCloneEngine(ctx: AppContext, id?: string): CloneEngine {
  try {
    return ctx.engines.clone.get(id);
  } catch (err) {
    throw engineAppError(err, ENGINE_FAILURES.recognition);
  }
}

/** A speech recognizer, when one is configured (consent check, language, transcripts). */
export function optionalRecognizer(ctx: AppContext) {
  try {
    return ctx.engines.asr.list().length ? ctx.engines.asr.get() : null;
  } catch {
    return null;
  }
}

export async function transcribeText(
  ctx: AppContext,
  file: string,
  language: string,
): Promise<string | null> {
  const asr = optionalRecognizer(ctx);
  if (!asr) return null;
  try {
    const t = await asr.transcribe(file, { language: language.slice(0, 2) });
    return t.segments
      .map((s) => s.text)
      .join('')
      .trim();
  } catch (err) {
    throw recognitionError(err);
  }
}

/** Local paths of stored objects (S3 objects are downloaded into `dir`). */
export async function localFiles(
  ctx: AppContext,
  objects: Array<{ key: string; name: string }>,
  dir: string,
): Promise<Array<{ name: string; path: string }>> {
  const out: Array<{ name: string; path: string }> = [];
  for (const o of objects) out.push({ name: o.name, path: await localPathOf(ctx, o.key, dir) });
  return out;
}

/**
 * The sample check of files on this machine, with the language by ASR and "one speaker" by a
 * speaker-embedding model when configured.
 */
export async function runSampleCheck(
  ctx: AppContext,
  files: Array<{ name: string; path: string }>,
  kind: 'fast' | 'professional',
  language: string,
): Promise<SampleCheck> {
  const asr = optionalRecognizer(ctx);
  let detected: { detected: string; expected: string; engine: string } | null = null;
  if (asr && files[0]) {
    try {
      const t = await asr.transcribe(files[0].path, {});
      detected = { detected: t.language || 'unknown', expected: language, engine: asr.label };
    } catch (err) {
      ctx.log.warn({ err }, 'language check failed');
    }
  }
  // "One speaker" by the speaker-embedding model, looked up per check so a model added later is used;
  // without one the item is not checked (the operator finds why in `npm run admin -- engines`).
  const found = await ctx.engines.speakerModel();
  return checkSample(files, {
    kind,
    language: detected,
    speakers: null,
    speakerModel: found.model,
  });
}

export interface BuiltCandidates {
  profile: VoiceProfile;
  references: ReferenceRecord[];
  candidates: CandidateRecord[];
  engine: CloneEngine;
}

/**
 * Reference clips from the sample files, transcripts when a recognizer is configured, then up to
 * `count` candidates from different clips (multi-reference engines get the rest as extra clips).
 */
export async function buildCandidates(
  ctx: AppContext,
  opts: {
    ownerId: string;
    cloneId: string;
    files: Array<{ name: string; path: string }>;
    language: string;
    engine: CloneEngine;
    count: number;
    /** Professional: one voice with as many references as the engine takes. */
    multiReference?: boolean;
    dir: string;
    signal?: AbortSignal;
  },
): Promise<BuiltCandidates> {
  const { engine, dir } = opts;
  const wanted = opts.multiReference ? Math.max(1, engine.maxReferences) : Math.max(opts.count, 1);
  const clips = await pickReferenceClips(opts.files, dir, Math.max(wanted, opts.count), {
    signal: opts.signal,
  });
  if (clips.length === 0) throw AppError.named('err_invalid_param', '样本中没有可用的语音片段');
  // A long dataset is measured on its best clips (the voice it will be), a short sample whole.
  const profile = await measureProfile(
    opts.multiReference ? clips.map((c) => c.path) : opts.files.map((f) => f.path),
    { signal: opts.signal },
  );
  const references: ReferenceRecord[] = [];
  const refs: CloneReference[] = [];
  for (const [i, clip] of clips.entries()) {
    const text = engine.kind === 'fitted' ? null : await transcribeText(ctx, clip.path, opts.language);
    const key = `voice-clones/${opts.ownerId}/${opts.cloneId}/ref-${i}.wav`;
    await ctx.storage.put(key, await readFile(clip.path), 'audio/wav');
    references.push(referenceRecord(clip, key, text));
    refs.push({
      path: clip.path,
      text: text ?? undefined,
      language: opts.language,
      duration_ms: clip.duration_ms,
    });
  }
  const candidates: CandidateRecord[] = [];
  const plans = opts.multiReference
    ? [{ reference: 0, list: refs.slice(0, Math.max(1, engine.maxReferences)) }]
    : refs.slice(0, opts.count).map((r, i) => ({
        reference: i,
        list: [r, ...refs.filter((x) => x !== r)].slice(0, engine.maxReferences),
      }));
  for (const [index, plan] of plans.entries()) {
    // The fitted voice follows the clip it was made from (candidates differ as the clips do).
    const clipProfile =
      engine.kind === 'fitted' && !opts.multiReference
        ? await measureProfile([plan.list[0]!.path], { signal: opts.signal }).then((p) =>
            p.median_hz > 0 ? p : profile,
          )
        : profile;
    try {
      const made = await engine.clone({
        references: plan.list,
        profile: clipProfile,
        language: opts.language,
        voiceId: `${opts.cloneId}-c${index}`,
        signal: opts.signal,
      });
      candidates.push({
        index,
        engine: engine.id,
        engine_label: engine.label,
        tts_engine: engine.ttsEngineId,
        voice: made.voice,
        note: made.note,
        files: made.files,
        reference: plan.reference,
      });
    } catch (err) {
      for (const c of candidates) await removeLocalFiles(c.files);
      throw recognitionError(err);
    }
  }
  return { profile, references, candidates, engine };
}

function referenceRecord(clip: ReferenceClip, key: string, text: string | null): ReferenceRecord {
  return {
    key,
    source: clip.source,
    start_ms: clip.start_ms,
    end_ms: clip.end_ms,
    duration_ms: clip.duration_ms,
    score: clip.score,
    text,
  };
}

export async function removeLocalFiles(files: string[]): Promise<void> {
  for (const f of files) await rm(f, { force: true });
}

/** A sentence spoken by a candidate, stored as MP3 under the clone's folder. */
export async function synthesizePreview(
  ctx: AppContext,
  opts: { ownerId: string; cloneId: string; candidate: CandidateRecord; text: string; language: string },
): Promise<string> {
  try {
    const result = await ctx.engines.tts.synthesize({
      segments: [{ text: spokenText(opts.text, opts.language) }],
      voice: opts.candidate.voice,
      language: opts.language,
    });
    const mp3 = await encodeAudio(result, { format: 'mp3' });
    const key = `voice-clones/${opts.ownerId}/${opts.cloneId}/preview-${opts.candidate.index}.mp3`;
    await ctx.storage.put(key, mp3, 'audio/mpeg');
    return key;
  } catch (err) {
    throw recognitionError(err);
  }
}
