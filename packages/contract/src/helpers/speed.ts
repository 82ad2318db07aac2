/** Speed steps -5..5 and the playback rates they stand for (spec §3). */
export const SPEED_RATES = [0.79, 0.83, 0.87, 0.91, 0.95, 1, 1.05, 1.09, 1.13, 1.17, 1.21] as const;
export const MIN_SPEED_STEP = -5;
export const MAX_SPEED_STEP = 5;

export function speedStepToRate(step: number): number {
  if (!Number.isInteger(step) || step < MIN_SPEED_STEP || step > MAX_SPEED_STEP) {
    throw new RangeError(`speed step must be an integer in -5..5, got ${step}`);
  }
  return SPEED_RATES[step - MIN_SPEED_STEP];
}

/** The step whose rate is nearest to `rate` (rates from older data may not be exact). */
export function rateToSpeedStep(rate: number): number {
  let best = 0;
  for (let i = 0; i < SPEED_RATES.length; i++) {
    if (Math.abs(SPEED_RATES[i] - rate) < Math.abs(SPEED_RATES[best] - rate)) best = i;
  }
  return best + MIN_SPEED_STEP;
}
