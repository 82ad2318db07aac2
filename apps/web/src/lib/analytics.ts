/**
 * Click tracking (spec §7, h5_button_click). The analytics service arrives with its own issue;
 * until then events are kept in a small in-memory queue and announced as a DOM event so that
 * issue can pick them up (and tests can observe them).
 */
export interface TrackedEvent {
  event: string;
  data: Record<string, unknown>;
  at: number;
}

const MAX_QUEUED = 200;
export const trackedEvents: TrackedEvent[] = [];

export function trackClick(button: string, data: Record<string, unknown> = {}): void {
  const e: TrackedEvent = { event: 'h5_button_click', data: { button, ...data }, at: Date.now() };
  trackedEvents.push(e);
  if (trackedEvents.length > MAX_QUEUED) trackedEvents.shift();
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent('vw:track', { detail: e }));
}
