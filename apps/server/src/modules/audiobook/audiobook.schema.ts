import type { SentenceCheck } from '@vw/engines';

/** Tables of migration 014 (audiobooks), added to the database type by module augmentation. */
export interface AudiobookWorksTable {
  id: string;
  owner_id: string;
  title: string;
  author: string;
  narrator: string;
  description: string;
  cover_key: string | null;
  cover_mime: string | null;
  source_name: string;
  format: string;
  encoding: string | null;
  narrator_voice_id: string;
  loudness: 'acx' | 'online';
  task_id: string | null;
  /** Which made the speaker attribution: '规则' or '语言模型 · <model>' (migration 015). */
  attribution: string;
  created_at: number;
  updated_at: number;
}

export interface AudiobookChaptersTable {
  id: string;
  work_id: string;
  seq: number;
  title: string;
  selected: number;
  duration_ms: number;
  /** 'chapter', or front/back matter a listener may leave out: 'preface' | 'afterword' | 'notes' (migration 022). */
  kind: 'chapter' | 'preface' | 'afterword' | 'notes';
}

export interface AudiobookParagraphsTable {
  id: string;
  work_id: string;
  chapter_id: string;
  seq: number;
  /** JSON array of {kind, text, speaker}. */
  segments: string;
  voice_id: string | null;
  pause_before_ms: number;
  pause_after_ms: number;
  text_rev: number;
  audio_key: string | null;
  audio_rev: number;
  stale: number;
  locked: number;
  /** JSON array of Take. */
  takes: string;
  duration_ms: number;
  check_status: '' | 'passed' | 'flagged';
}

export interface AudiobookCharactersTable {
  id: string;
  work_id: string;
  name: string;
  lines: number;
  gender: 'male' | 'female' | 'unknown';
  voice_id: string | null;
}

export interface Take {
  rev: number;
  key: string;
  duration_ms: number;
  created_at: number;
  engine: string;
  /** The speech self-check of the take, its sentences together (absent: not heard). */
  check?: SentenceCheck;
}

declare module '../../db/schema.ts' {
  interface Database {
    audiobook_works: AudiobookWorksTable;
    audiobook_chapters: AudiobookChaptersTable;
    audiobook_paragraphs: AudiobookParagraphsTable;
    audiobook_characters: AudiobookCharactersTable;
  }
}

export type WorkRow = AudiobookWorksTable;
export type ChapterRow = AudiobookChaptersTable;
export type ParagraphRow = AudiobookParagraphsTable;
export type CharacterRow = AudiobookCharactersTable;
