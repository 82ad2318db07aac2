import type { AttributedText, BookCharacter, Gender, SpeechSegment } from '../book/types.ts';
import type { ChatClient } from './chat.ts';

/**
 * Language-model refinement of the rule-based speaker attribution (`attributeSpeakers`). Chapters go in
 * chunks (never across a chapter, at most `maxQuotes` quotes each); per quote the model sees its id,
 * its paragraph id, the quote, the narration of its paragraph and the rules' guess, plus the character
 * list. It answers JSON `{"quotes":[{"id","speaker"}],"characters":[{"name","gender"}]}`. The answer is
 * validated (unknown ids and malformed entries dropped, names cut to 20 characters), a chunk whose
 * answer misses ids is asked once more for the missing ones, and whatever stays unanswered keeps the
 * rules' guess. The character list is then recounted from the merged quotes.
 */

/** Marks the prompt, so a fake chat server can recognise it (see `fakeSpeakerAnswer`). */
export const SPEAKER_PROMPT_MARK = 'Attribute each quote of a Chinese novel to its speaker.';

const SYSTEM = [
  SPEAKER_PROMPT_MARK,
  'You get quotes with their id, paragraph id, the narration around them and a rule-based guess, plus the known characters.',
  'For every quote id, name who speaks it (a character name as written in the book; null if nobody can tell).',
  'Also give each character that speaks a gender: "male", "female" or "unknown".',
  'Answer with JSON only: {"quotes":[{"id":"q1","speaker":"张三"}],"characters":[{"name":"张三","gender":"male"}]}.',
].join(' ');

export interface SpeakerQuoteInput {
  id: string;
  paragraph: string;
  text: string;
  context: string;
  guess: string | null;
}

export interface RefineResult extends AttributedText {
  /** Quotes whose speaker came from the model's answer (same or different from the rules). */
  answered: number;
  /** Quotes whose speaker the model changed. */
  changed: number;
  /** Quotes in all. */
  quotes: number;
  /** Requests sent (chunks + retries). */
  requests: number;
  /** Ids dropped from answers (unknown, duplicated or malformed). */
  dropped: number;
}

const GENDERS = new Set(['male', 'female', 'unknown']);
const cleanName = (v: unknown): string | null | undefined => {
  if (v === null) return null;
  if (typeof v !== 'string') return undefined;
  const name = v.trim().slice(0, 20);
  return name && !/^(null|none|unknown|narrator|旁白|未知)$/i.test(name) ? name : null;
};

/** Validates one answer against the asked ids: the speaker per known id, the genders, dropped count. */
export function validateSpeakerAnswer(
  answer: Record<string, unknown> | null,
  asked: Set<string>,
): { speakers: Map<string, string | null>; genders: Map<string, Gender>; dropped: number } {
  const speakers = new Map<string, string | null>();
  const genders = new Map<string, Gender>();
  let dropped = 0;
  const quotes = Array.isArray(answer?.quotes) ? (answer.quotes as unknown[]) : [];
  for (const q of quotes) {
    const entry = q as { id?: unknown; speaker?: unknown } | null;
    const id = typeof entry?.id === 'string' ? entry.id : null;
    const speaker = cleanName(entry?.speaker);
    if (!id || !asked.has(id) || speakers.has(id) || speaker === undefined) {
      dropped++;
      continue;
    }
    speakers.set(id, speaker);
  }
  const chars = Array.isArray(answer?.characters) ? (answer.characters as unknown[]) : [];
  for (const c of chars) {
    const entry = c as { name?: unknown; gender?: unknown } | null;
    const name = cleanName(entry?.name);
    if (name && typeof entry?.gender === 'string' && GENDERS.has(entry.gender))
      genders.set(name, entry.gender as Gender);
  }
  return { speakers, genders, dropped };
}

function userPrompt(quotes: SpeakerQuoteInput[], characters: BookCharacter[], retry?: string): string {
  return [
    retry ?? '',
    `Characters: ${JSON.stringify(characters.map((c) => ({ name: c.name, gender: c.gender })))}`,
    `Quotes (${quotes.length}): ${JSON.stringify(quotes)}`,
    `Answer every one of the ${quotes.length} ids.`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * Refines `attributed` (from `attributeSpeakers` over the paragraphs of all chapters in order);
 * `chapterSizes` are the paragraph counts per chapter. Throws the client's `EngineError` when the
 * server cannot be reached (the caller keeps the rules' result then).
 */
export async function refineSpeakers(
  client: ChatClient,
  attributed: AttributedText,
  chapterSizes: number[],
  opts: { maxQuotes?: number; signal?: AbortSignal } = {},
): Promise<RefineResult> {
  const maxQuotes = opts.maxQuotes ?? 60;
  // Quote positions, chunked per chapter.
  type Pos = { p: number; s: number; input: SpeakerQuoteInput };
  const chunks: Pos[][] = [];
  let p = 0;
  let n = 0;
  for (const size of chapterSizes) {
    let chunk: Pos[] = [];
    for (let i = 0; i < size; i++, p++) {
      const segs = attributed.paragraphs[p]?.segments ?? [];
      const context = segs
        .filter((s) => s.kind === 'narration')
        .map((s) => s.text)
        .join('…')
        .slice(0, 80);
      for (const [s, seg] of segs.entries()) {
        if (seg.kind !== 'quote') continue;
        chunk.push({
          p,
          s,
          input: {
            id: `q${++n}`,
            paragraph: `p${p + 1}`,
            text: seg.text.slice(0, 200),
            context,
            guess: seg.speaker,
          },
        });
        if (chunk.length >= maxQuotes) {
          chunks.push(chunk);
          chunk = [];
        }
      }
    }
    if (chunk.length) chunks.push(chunk);
  }

  const paragraphs = attributed.paragraphs.map((x) => ({ segments: x.segments.map((s) => ({ ...s })) }));
  const genders = new Map<string, Gender>();
  let answered = 0;
  let changed = 0;
  let requests = 0;
  let dropped = 0;
  for (const chunk of chunks) {
    const byId = new Map(chunk.map((c) => [c.input.id, c]));
    const got = new Map<string, string | null>();
    let pending = chunk;
    for (let attempt = 0; attempt < 2 && pending.length; attempt++) {
      const asked = new Set(pending.map((c) => c.input.id));
      const retry =
        attempt === 0
          ? undefined
          : `Your previous answer missed ${pending.length} of the ids or was not valid JSON. Answer these ids only.`;
      requests++;
      const answer = await client.json(
        SYSTEM,
        userPrompt(
          pending.map((c) => c.input),
          attributed.characters,
          retry,
        ),
        { signal: opts.signal },
      );
      const v = validateSpeakerAnswer(answer, asked);
      dropped += v.dropped;
      for (const [id, speaker] of v.speakers) got.set(id, speaker);
      for (const [name, g] of v.genders) if (g !== 'unknown' || !genders.has(name)) genders.set(name, g);
      pending = pending.filter((c) => !got.has(c.input.id));
    }
    for (const [id, speaker] of got) {
      const pos = byId.get(id)!;
      const seg = paragraphs[pos.p].segments[pos.s] as SpeechSegment;
      answered++;
      if (seg.speaker !== speaker) changed++;
      seg.speaker = speaker;
    }
  }

  // Recount the characters from the merged quotes; gender: the model's, else the rules', else unknown.
  const ruleGender = new Map(attributed.characters.map((c) => [c.name, c.gender]));
  const lines = new Map<string, number>();
  for (const x of paragraphs)
    for (const s of x.segments)
      if (s.kind === 'quote' && s.speaker) lines.set(s.speaker, (lines.get(s.speaker) ?? 0) + 1);
  const characters: BookCharacter[] = [...lines]
    .map(([name, count]) => {
      const model = genders.get(name);
      const rule = ruleGender.get(name);
      const gender: Gender = model && model !== 'unknown' ? model : (rule ?? model ?? 'unknown');
      return { name, lines: count, gender };
    })
    .sort((a, b) => b.lines - a.lines);
  return {
    paragraphs,
    characters,
    answered,
    changed,
    quotes: n,
    requests,
    dropped,
  };
}

/**
 * The fake chat server's scripted answer to a speaker prompt: every asked quote keeps the rules' guess
 * (a guess-less quote goes to the first character), characters keep their gender. Not product code.
 */
export function fakeSpeakerAnswer(prompt: string): string {
  const chars = JSON.parse(/^Characters: (.*)$/m.exec(prompt)?.[1] ?? '[]') as Array<{
    name: string;
    gender: string;
  }>;
  const quotes = JSON.parse(/^Quotes \(\d+\): (.*)$/m.exec(prompt)?.[1] ?? '[]') as SpeakerQuoteInput[];
  return JSON.stringify({
    quotes: quotes.map((q) => ({ id: q.id, speaker: q.guess ?? chars[0]?.name ?? null })),
    characters: chars,
  });
}
