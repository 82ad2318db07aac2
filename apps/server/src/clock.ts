/** Time source for services; tests move it forward instead of sleeping. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };
