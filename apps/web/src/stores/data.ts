import type { LanguageIcon, Model, Product, Voice } from '@vw/contract';
import { create } from 'zustand';

/**
 * Catalogue data loaded at startup (spec §4): default voices, voices, models and products.
 */
export interface CatalogueState {
  /** Tool type ('tts', 'audiobook', …) → voice_id. */
  defaultVoiceMap: Record<string, string>;
  voices: Voice[];
  /** False until the voice list has been fetched once (the default-voice wait checks it). */
  voicesLoaded: boolean;
  models: Model[];
  multilingualModelId: string;
  languageIcons: LanguageIcon[];
  products: Product[];
  set: (patch: Partial<Omit<CatalogueState, 'set' | 'patchVoice'>>) => void;
  /** Updates one voice in place (favourite toggled). */
  patchVoice: (voiceId: string, patch: Partial<Voice>) => void;
}

export const emptyCatalogue = {
  defaultVoiceMap: {},
  voices: [],
  voicesLoaded: false,
  models: [],
  multilingualModelId: '',
  languageIcons: [],
  products: [] as Product[],
};

export const useCatalogueStore = create<CatalogueState>((set) => ({
  ...emptyCatalogue,
  set: (patch) => set(patch),
  patchVoice: (voiceId, patch) =>
    set((s) => ({ voices: s.voices.map((v) => (v.voice_id === voiceId ? { ...v, ...patch } : v)) })),
}));
