export interface TextPiece {
  text: string;
  /** UTF-16 offsets into the original text, so timings and edits map back to it. */
  start: number;
  end: number;
}

// A terminator ends a sentence; closing quotes and brackets right after it stay with that sentence.
const TERMINATOR = /[。！？；!?;…\n]/u;
const CLOSER = /[”’」』）)》"'\]】]/u;

// A full stop ends an English sentence only before a space, a closer or the end (not in 3.14 or a.m.).
const endsSentence = (text: string, i: number) =>
  TERMINATOR.test(text[i]) ||
  (text[i] === '.' && (i + 1 === text.length || /\s/u.test(text[i + 1]) || CLOSER.test(text[i + 1])));
// Where an over-long sentence may be cut, best first.
const SOFT_BREAKS = [/[，,、：:]/u, /\s/u];

/**
 * Splits Chinese/English text into sentences at 。！？；.!?; and newlines, then cuts any piece longer
 * than `maxLength` at a comma or space (or hard at the limit). Blank pieces are dropped.
 */
export function splitSentences(text: string, maxLength = 200): TextPiece[] {
  const pieces: TextPiece[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!endsSentence(text, i)) continue;
    let end = i + 1;
    while (end < text.length && (CLOSER.test(text[end]) || endsSentence(text, end))) end++;
    pushLimited(pieces, text, start, end, maxLength);
    start = end;
    i = end - 1;
  }
  pushLimited(pieces, text, start, text.length, maxLength);
  return pieces;
}

function pushLimited(out: TextPiece[], text: string, start: number, end: number, maxLength: number) {
  while (end - start > maxLength) {
    const window = text.slice(start, start + maxLength);
    let cut = -1;
    for (const re of SOFT_BREAKS) {
      for (let j = window.length - 1; j > maxLength / 3 && cut < 0; j--) if (re.test(window[j])) cut = j + 1;
      if (cut > 0) break;
    }
    if (cut < 0) cut = maxLength;
    // Never cut inside a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(text[start + cut - 1])) cut--;
    pushTrimmed(out, text, start, start + cut);
    start += cut;
  }
  pushTrimmed(out, text, start, end);
}

function pushTrimmed(out: TextPiece[], text: string, start: number, end: number) {
  while (start < end && /\s/u.test(text[start])) start++;
  while (end > start && /\s/u.test(text[end - 1])) end--;
  if (end > start) out.push({ text: text.slice(start, end), start, end });
}
