import { create } from 'zustand';

/**
 * Catalogue data loaded at startup (spec §4): default voices, voices, models and products.
 * Their calls and exact shapes arrive with later issues; until then these stay empty.
 */
export interface CatalogueState {
  defaultVoiceMap: Record<string, unknown>;
  voices: unknown[];
  models: unknown[];
  products: unknown[];
  set: (patch: Partial<Omit<CatalogueState, 'set'>>) => void;
}

export const useCatalogueStore = create<CatalogueState>((set) => ({
  defaultVoiceMap: {},
  voices: [],
  models: [],
  products: [],
  set: (patch) => set(patch),
}));
