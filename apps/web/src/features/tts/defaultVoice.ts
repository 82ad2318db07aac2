import { isLocked, splitCatalogue } from '@/features/voices/model.ts';
import { useCatalogueStore } from '@/stores/data.ts';

/** The default-voice wait polls every 50 ms (spec §9). */
export const DEFAULT_VOICE_POLL_MS = 50;

/**
 * Waits until the voice list is loaded, then answers the default voice of a tool type (the
 * default voice map), or the first built-in voice the plan may use when the map has none.
 */
export async function waitForDefaultVoice(
  type: string,
  level: number,
  signal?: AbortSignal,
  pollMs = DEFAULT_VOICE_POLL_MS,
): Promise<string | null> {
  for (;;) {
    if (signal?.aborted) return null;
    const { voicesLoaded, voices, defaultVoiceMap } = useCatalogueStore.getState();
    if (voicesLoaded) {
      const id = defaultVoiceMap[type];
      if (id && voices.some((v) => v.voice_id === id)) return id;
      const first = splitCatalogue(voices).builtin.find((v) => !isLocked(v, level));
      return first?.voice_id ?? null;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
