import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VoiceChangerTarget } from '@vw/contract';
import { encodeWav, measurePitch, type PitchStats } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { VoiceRow } from '../../db/schema.ts';
import type { VoiceReference } from '../../engines/engines.ts';
import { AppError } from '../../errors.ts';
import { listUsableClones } from '../voices/clones.ts';
import { findVoices, getUsableVoice } from '../voices/voices.service.ts';

/*
 * Target voices of the voice changer and their pitch. A built-in voice's F0 is measured once from a
 * reference sentence synthesised with it (kept in storage with the WAV, keyed by the voice's engine
 * parameters, so an operator's edit measures again); a cloned voice's comes from its stored profile
 * (listUsableClones of the voice library).
 */

/** English and Mandarin voices read the same sentence shape; espeak reads pinyin for cmn itself. */
const REFERENCE_TEXT: Record<string, string> = {
  en: 'The quick brown fox jumps over the lazy dog, and then it runs back home again.',
  zh: '今天天气很好，我们一起去公园散步，看看湖边的风景。',
};

export interface ClonedVoiceProfile {
  voice_id: string;
  name: string;
  profile: { median_hz: number; p10_hz: number; p90_hz: number };
}

/** The user's ready cloned voices with their measured pitch (none while voice_clone_switch is off). */
export function listClones(ctx: AppContext, userId: string): Promise<ClonedVoiceProfile[]> {
  return listUsableClones(ctx, userId);
}

const referenceKey = (row: VoiceRow) => {
  const hash = createHash('sha1')
    .update(`${row.engine}\n${row.engine_params}\n${row.language}`)
    .digest('hex');
  return `voice-changer/references/${row.voice_id}-${hash.slice(0, 16)}`;
};

async function cachedReference(ctx: AppContext, row: VoiceRow): Promise<VoiceReference | null> {
  const key = referenceKey(row);
  const hit = ctx.engines.voicePitches.get(key);
  if (hit) return hit;
  if (!(await ctx.storage.stat(`${key}.json`).catch(() => null))) return null;
  const chunks: Buffer[] = [];
  for await (const c of await ctx.storage.read(`${key}.json`)) chunks.push(c as Buffer);
  const ref = JSON.parse(Buffer.concat(chunks).toString('utf8')) as VoiceReference;
  ctx.engines.voicePitches.set(key, ref);
  return ref;
}

/** Synthesises the reference sentence with the voice, measures its F0, stores both (once). */
export async function measureVoiceReference(
  ctx: AppContext,
  row: VoiceRow,
  signal?: AbortSignal,
): Promise<VoiceReference> {
  const cached = await cachedReference(ctx, row);
  if (cached) return cached;
  const key = referenceKey(row);
  const text = REFERENCE_TEXT[row.language.startsWith('zh') || row.language === 'yue' ? 'zh' : 'en'];
  const result = await ctx.engines.tts.synthesize(
    { segments: [{ text }], voice: JSON.parse(row.engine_params), language: row.language },
    { signal },
  );
  const wav = encodeWav(result);
  const dir = await mkdtemp(join(tmpdir(), 'vw-vc-ref-'));
  try {
    const file = join(dir, 'reference.wav');
    await writeFile(file, wav);
    const pitch = await measurePitch(file, { signal });
    if (!(pitch.median_hz > 0)) {
      throw AppError.named('err_generate_voice_failed', '无法测量该声音的音高，请换一个目标声音');
    }
    await ctx.storage.put(`${key}.wav`, wav, 'audio/wav');
    const ref: VoiceReference = { pitch, wavKey: `${key}.wav` };
    await ctx.storage.put(`${key}.json`, Buffer.from(JSON.stringify(ref)), 'application/json');
    ctx.engines.voicePitches.set(key, ref);
    return ref;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type ResolvedTarget =
  | { kind: 'clone'; voice_id: string; name: string; pitch: PitchStats }
  | { kind: 'voice'; voice_id: string; name: string; row: VoiceRow };

/**
 * Checks the user may use the voice (visible, published, enabled, plan level) and says where its
 * pitch comes from. Cloned voices of other users are never found (err_not_found).
 */
export async function resolveTarget(
  ctx: AppContext,
  userId: string,
  voiceId: string,
): Promise<ResolvedTarget> {
  const clone = (await listClones(ctx, userId)).find((c) => c.voice_id === voiceId);
  if (clone) {
    return {
      kind: 'clone',
      voice_id: clone.voice_id,
      name: clone.name,
      pitch: { ...clone.profile, voiced_share: 1 },
    };
  }
  const { row } = await getUsableVoice(ctx, userId, voiceId, undefined);
  if (!ctx.engines.tts.has(row.engine)) {
    throw AppError.named('err_interface_unavailable', `声音 ${row.name} 的合成引擎未启用，无法测量目标音高`);
  }
  return { kind: 'voice', voice_id: row.voice_id, name: row.name, row };
}

/** The voices the user can pick, built-in and cloned, with the F0 when it is known. */
export async function listTargets(ctx: AppContext, userId: string): Promise<VoiceChangerTarget[]> {
  const [{ voices }, clones] = await Promise.all([
    findVoices(ctx, userId, { legacy_voice_skip_disabled: true }),
    listClones(ctx, userId),
  ]);
  const cloneIds = new Set(clones.map((c) => c.voice_id));
  const out: VoiceChangerTarget[] = clones.map((c) => ({
    voice_id: c.voice_id,
    name: c.name,
    category: 'mine',
    language: '',
    gender: '',
    engine_label: '我的克隆声音',
    median_hz: c.profile.median_hz,
    required_level: 0,
  }));
  for (const v of voices) {
    if (cloneIds.has(v.voice_id)) {
      const mine = out.find((t) => t.voice_id === v.voice_id)!;
      Object.assign(mine, { language: v.language, gender: v.labels.gender, engine_label: v.engine_label });
      continue;
    }
    const key = measuredKeyOf(ctx, v.voice_id);
    out.push({
      voice_id: v.voice_id,
      name: v.name,
      category: v.category === 'mine' ? 'mine' : 'builtin',
      language: v.language,
      gender: v.labels.gender,
      engine_label: v.engine_label,
      median_hz: key ? (ctx.engines.voicePitches.get(key)?.pitch.median_hz ?? null) : null,
      required_level: v.required_level,
    });
  }
  return out;
}

function measuredKeyOf(ctx: AppContext, voiceId: string): string | undefined {
  for (const k of ctx.engines.voicePitches.keys())
    if (k.startsWith(`voice-changer/references/${voiceId}-`)) return k;
  return undefined;
}
