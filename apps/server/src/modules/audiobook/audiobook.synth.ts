import type { BookSegment } from '@vw/contract';
import {
  type EngineVoice,
  encodeWav,
  isMandarinVoice,
  type Pcm,
  type PronunciationDictionary,
  resamplePcm,
  resolveEspeakVoice,
  type SentenceCheck,
} from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { speakChecked } from '../projects/stages/self-check.ts';
import { getDictionary, planDictionary } from '../voices/dictionary.service.ts';
import { engineLabelOf, getUsableVoice } from '../voices/voices.service.ts';
import { planSentences } from '../voices/voices.text.ts';

import type { CharacterRow, ParagraphRow, WorkRow } from './audiobook.schema.ts';

/**
 * Paragraph audio is kept at one rate (the embedded espeak's own 22.05 kHz), so a chapter is joined
 * by copying samples; other engines' audio is resampled to it.
 */
export const BOOK_SAMPLE_RATE = 22_050;
/** A short breath between a quote and the narration around it. */
const SEGMENT_GAP_MS = 120;

interface ResolvedVoice {
  voiceId: string;
  voice: EngineVoice;
  language: string;
  inlinePinyin: boolean;
  label: string;
}

/** Voices and the dictionary of one synthesis run, looked up once. */
export class Casting {
  private voices = new Map<string, Promise<ResolvedVoice>>();
  private dictionary: Promise<PronunciationDictionary> | null = null;
  private readonly characterVoice: Map<string, string>;

  constructor(
    private readonly ctx: AppContext,
    private readonly ownerId: string,
    private readonly work: Pick<WorkRow, 'narrator_voice_id'>,
    characters: Pick<CharacterRow, 'name' | 'voice_id'>[],
  ) {
    this.characterVoice = new Map(characters.filter((c) => c.voice_id).map((c) => [c.name, c.voice_id!]));
  }

  /** The voice of a segment: the paragraph's own, else the speaker's casting, else the narrator's. */
  voiceIdOf(paragraph: Pick<ParagraphRow, 'voice_id'>, segment: BookSegment): string {
    if (paragraph.voice_id) return paragraph.voice_id;
    if (segment.kind === 'quote' && segment.speaker) {
      const cast = this.characterVoice.get(segment.speaker);
      if (cast) return cast;
    }
    return this.work.narrator_voice_id;
  }

  resolve(voiceId: string): Promise<ResolvedVoice> {
    let hit = this.voices.get(voiceId);
    if (!hit) {
      hit = (async () => {
        const usable = await getUsableVoice(this.ctx, this.ownerId, voiceId, undefined);
        const language = usable.row.language;
        let inlinePinyin = false;
        if (usable.engineVoice.engine === 'espeak') {
          try {
            inlinePinyin = isMandarinVoice(resolveEspeakVoice(usable.engineVoice, language));
          } catch {
            inlinePinyin = false;
          }
        }
        return {
          voiceId,
          voice: usable.engineVoice,
          language,
          inlinePinyin,
          // The library's honest label (神经网络 · Kokoro…, 标准引擎): what made the audio.
          label: `${usable.row.name}（${engineLabelOf(this.ctx, usable.row)}）`,
        };
      })();
      hit.catch(() => this.voices.delete(voiceId));
      this.voices.set(voiceId, hit);
    }
    return hit;
  }

  userDictionary(): Promise<PronunciationDictionary> {
    this.dictionary ??= getDictionary(this.ctx, this.ownerId);
    return this.dictionary;
  }
}

/**
 * The segments of a paragraph that say something. Numbers, dates and Latin words are read by the
 * one reading layer inside planSentences (for Chinese voices), so the written text stays as written.
 */
export function spokenSegments(segments: BookSegment[]): BookSegment[] {
  return segments.map((s) => ({ ...s, text: s.text.trim() })).filter((s) => s.text.length > 0);
}

export function paragraphText(segments: BookSegment[]): string {
  return segments.map((s) => s.text).join('');
}

/** A sentence of a paragraph as made: its written text and its self-check (absent: not heard). */
export interface SpokenSentence {
  text: string;
  check?: SentenceCheck;
}

/**
 * One paragraph through the TTS engines: each segment with its voice (narrator or character), the
 * text normalised for speech and the user's pronunciation dictionary applied, sentence by sentence,
 * each sentence heard and made again when it is wrong (`check`, the speech self-check).
 * Answers a WAV at BOOK_SAMPLE_RATE, the engine labels used and each sentence's check.
 */
export async function synthesizeParagraph(
  ctx: AppContext,
  casting: Casting,
  paragraph: Pick<ParagraphRow, 'voice_id' | 'segments'>,
  options: { signal?: AbortSignal; check?: boolean } = {},
): Promise<{
  wav: Buffer;
  durationMs: number;
  samples: Int16Array;
  engine: string;
  sentences: SpokenSentence[];
}> {
  const { signal } = options;
  const segments = spokenSegments(JSON.parse(paragraph.segments) as BookSegment[]);
  const sentences: SpokenSentence[] = [];
  const parts: Int16Array[] = [];
  const labels = new Set<string>();
  const gap = new Int16Array(Math.round((SEGMENT_GAP_MS / 1000) * BOOK_SAMPLE_RATE));
  for (const [i, segment] of segments.entries()) {
    const voice = await casting.resolve(casting.voiceIdOf(paragraph, segment));
    labels.add(voice.label);
    const dictionary = planDictionary(await casting.userDictionary(), segment.text, voice.inlinePinyin);
    if (i > 0) parts.push(gap);
    for (const unit of planSentences(escapeMarkup(segment.text), voice.inlinePinyin, {
      language: voice.language,
      words: dictionary,
    })) {
      const make = async (speed: number): Promise<Pcm> => {
        const result = await ctx.engines.tts.synthesize(
          {
            segments: unit.segments,
            voice: voice.voice,
            language: voice.language,
            dictionary,
            ...(speed === 1 ? {} : { speed }),
          },
          { signal },
        );
        return { samples: result.samples, sampleRate: result.sampleRate };
      };
      // Heard as the engine made it (before resampling to the book's rate).
      const made = options.check
        ? await speakChecked(ctx, { text: unit.plain, language: voice.language, signal, make })
        : { audio: await make(1) };
      let pcm = made.audio;
      if (pcm.sampleRate !== BOOK_SAMPLE_RATE) pcm = await resamplePcm(pcm, BOOK_SAMPLE_RATE);
      parts.push(pcm.samples);
      sentences.push({ text: unit.plain, ...(made.check ? { check: made.check } : {}) });
    }
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const samples = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    samples.set(p, at);
    at += p.length;
  }
  const pcm = { samples, sampleRate: BOOK_SAMPLE_RATE };
  return {
    wav: encodeWav(pcm),
    durationMs: Math.round((total / BOOK_SAMPLE_RATE) * 1000),
    samples,
    engine: [...labels].join('、'),
    sentences,
  };
}

/** Book text is plain text: angle brackets must not read as TTS markup. */
export function escapeMarkup(text: string): string {
  return text.replaceAll('<', '＜').replaceAll('>', '＞');
}
