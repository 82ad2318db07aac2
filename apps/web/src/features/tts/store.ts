import type { HistoryItem } from '@vw/contract';
import { create } from 'zustand';

/**
 * The text-to-speech workspace: text and settings survive navigation (the voice library's
 * "use this voice" sets the voice here before going to /tts).
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

interface TtsState extends TtsSettings {
  text: string;
  gen: Generation;
  /** Bumped when the history should reload (after a generation, rename, delete). */
  historyVersion: number;
  setText: (text: string) => void;
  setSettings: (patch: Partial<TtsSettings>) => void;
  /** Selects a voice (and its default model when the current one does not fit). */
  selectVoice: (voiceId: string) => void;
  setGen: (patch: Partial<Generation> | ((g: Generation) => Partial<Generation>)) => void;
  bumpHistory: () => void;
}

export const useTtsStore = create<TtsState>((set) => ({
  text: '',
  voiceId: '',
  modelId: '',
  ...DEFAULT_SETTINGS,
  gen: idleGeneration,
  historyVersion: 0,
  setText: (text) => set({ text }),
  setSettings: (patch) => set(patch),
  selectVoice: (voiceId) => set({ voiceId }),
  setGen: (patch) =>
    set((s) => ({ gen: { ...s.gen, ...(typeof patch === 'function' ? patch(s.gen) : patch) } })),
  bumpHistory: () => set((s) => ({ historyVersion: s.historyVersion + 1 })),
}));
