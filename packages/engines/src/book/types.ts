/** Book text engines (issue 19): import, chapters, speech normalisation and speaker attribution. */

export type BookFormat = 'txt' | 'epub' | 'docx' | 'md' | 'pdf';

/**
 * What a section of a book is: the text itself, or front and back matter (序/前言, 后记/跋, 注释/附录)
 * that a listener may not want read aloud — kept as a section of its own so it can be left out.
 */
export type SectionKind = 'chapter' | 'preface' | 'afterword' | 'notes';

export interface BookChapter {
  title: string;
  paragraphs: string[];
  /** Set for front and back matter only (absent = an ordinary chapter). */
  kind?: SectionKind;
}

export interface ImportedBook {
  format: BookFormat;
  /** Detected text encoding of a TXT file ('UTF-8', 'GB18030', 'Big5'). */
  encoding?: string;
  title: string;
  author: string;
  cover?: { bytes: Buffer; mime: string };
  chapters: BookChapter[];
}

export interface ImportLimits {
  /** Largest file, and largest total uncompressed size of an archive, in bytes. */
  maxBytes: number;
  /** Most entries an archive (EPUB, DOCX) may hold. */
  maxEntries: number;
  /** Largest uncompressed / compressed ratio of one archive entry (zip bombs). */
  maxRatio: number;
}

export type SegmentKind = 'narration' | 'quote';

export interface SpeechSegment {
  kind: SegmentKind;
  text: string;
  /** Attributed speaker of a quote; null for narration or when nobody could be found. */
  speaker: string | null;
}

export type Gender = 'male' | 'female' | 'unknown';

export interface BookCharacter {
  name: string;
  lines: number;
  gender: Gender;
}

export interface AttributedText {
  paragraphs: Array<{ segments: SpeechSegment[] }>;
  characters: BookCharacter[];
}

export interface PinyinReading {
  char: string;
  /** Tone-numbered pinyin, neutral tone 5 ('hai2', 'de5'); non-Chinese characters get ''. */
  pinyin: string;
}

export interface DictionaryEntry {
  word: string;
  pinyin: string;
}

/** Codes from the spec §8: 3000 file check failed, 3001 no extractable text. */
export type BookImportCode = 3000 | 3001;

export class BookImportError extends Error {
  readonly code: BookImportCode;
  constructor(code: BookImportCode, message: string) {
    super(message);
    this.name = 'BookImportError';
    this.code = code;
  }
}
