import { create } from 'zustand';

/** One preview at a time across the voice library and the voice picker. */
interface PreviewState {
  playingId: string | null;
  loadingId: string | null;
  toggle: (id: string, url: string | undefined) => void;
  stop: () => void;
}

let audio: HTMLAudioElement | null = null;

export const usePreviewStore = create<PreviewState>((set, get) => ({
  playingId: null,
  loadingId: null,
  toggle: (id, url) => {
    if (get().playingId === id || get().loadingId === id) {
      get().stop();
      return;
    }
    get().stop();
    if (!url) return;
    audio = new Audio(url);
    const mine = audio;
    set({ loadingId: id });
    mine.onplaying = () => audio === mine && set({ playingId: id, loadingId: null });
    mine.onended = mine.onerror = () => audio === mine && set({ playingId: null, loadingId: null });
    void mine.play().catch(() => audio === mine && set({ playingId: null, loadingId: null }));
  },
  stop: () => {
    if (audio) {
      audio.pause();
      audio.src = '';
      audio = null;
    }
    set({ playingId: null, loadingId: null });
  },
}));
