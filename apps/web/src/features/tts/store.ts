import type { HistoryItem } from '@vw/contract';
import { create } from 'zustand';
import { type Draft, emptyDraft } from './draft.ts';

/**
 * The text-to-speech workspace: the draft and settings survive navigation (the voice library's
 * "use this voice" sets the voice here before going to /tts); the draft also survives a reload.
 */
export interface TtsSettings {
  voiceId: string;
  modelId: string;
  speed: number;
  pitch: number;
  volume: number;
}

export const DEFAULT_SETTINGS: Omit<TtsSettings, 'voiceId' | 'modelId'> = { speed: 1, pitch: 0, volume: 0 };

export type GenerationPhase = 'idle' | 'streaming' | 'task' | 'done' | 'failed';

export interface Generation {
  phase: GenerationPhase;
  /** What the <audio> element plays (MediaSource or signed URL). */
  src: string | null;
  /** Complete encoded audio for the waveform. */
  bytes: ArrayBuffer | null;
  item: HistoryItem | null;
  /** The long-text task being followed (kept here so it is followed again after coming back). */
  taskId: string | null;
  progress: number;
  sentencesDone: number;
  sentencesTotal: number;
  cacheHit: boolean;
  credits: number;
  error: string | null;
}

export const idleGeneration: Generation = {
  phase: 'idle',
  src: null,
  bytes: null,
  item: null,
  taskId: null,
  progress: 0,
  sentencesDone: 0,
  sentencesTotal: 0,
  cacheHit: false,
  credits: 0,
  error: null,
};

/** Where a user's draft is kept in this browser (sign-out clears it with everything else). */
const draftKey = (uid: string) => `ttsDraft:${uid}`;

function loadDraft(uid: string): Draft {
  try {
    const d = JSON.parse(localStorage.getItem(draftKey(uid)) ?? 'null') as Draft | null;
    return d && typeof d.text === 'string' && Array.isArray(d.marks) ? d : emptyDraft;
  } catch {
    return emptyDraft;
  }
}

function saveDraft(uid: string, draft: Draft): void {
  if (!uid) return;
  try {
    if (draft.text || draft.marks.length) localStorage.setItem(draftKey(uid), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(uid));
  } catch {
    // Storage full or disabled: the draft still lives for this visit.
  }
}

interface TtsState extends TtsSettings {
  /** The user's text with its pauses and readings (draft.ts). */
  draft: Draft;
  /** Whose draft it is (uid): another account signing in on this tab gets its own. */
  draftOwner: string;
  gen: Generation;
  /** Bumped when the history should reload (after a generation, rename, delete). */
  historyVersion: number;
  setDraft: (draft: Draft) => void;
  /** Takes up the saved draft of `uid` unless it is already the one in use. */
  openDraft: (uid: string) => void;
  setSettings: (patch: Partial<TtsSettings>) => void;
  /** Selects a voice (and its default model when the current one does not fit). */
  selectVoice: (voiceId: string) => void;
  setGen: (patch: Partial<Generation> | ((g: Generation) => Partial<Generation>)) => void;
  bumpHistory: () => void;
}

export const useTtsStore = create<TtsState>((set) => ({
  draft: emptyDraft,
  draftOwner: '',
  voiceId: '',
  modelId: '',
  ...DEFAULT_SETTINGS,
  gen: idleGeneration,
  historyVersion: 0,
  setDraft: (draft) =>
    set((s) => {
      saveDraft(s.draftOwner, draft);
      return { draft };
    }),
  openDraft: (uid) => set((s) => (s.draftOwner === uid ? {} : { draftOwner: uid, draft: loadDraft(uid) })),
  setSettings: (patch) => set(patch),
  selectVoice: (voiceId) => set({ voiceId }),
  setGen: (patch) =>
    set((s) => ({ gen: { ...s.gen, ...(typeof patch === 'function' ? patch(s.gen) : patch) } })),
  bumpHistory: () => set((s) => ({ historyVersion: s.historyVersion + 1 })),
}));
