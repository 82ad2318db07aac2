/**
 * Calendar arithmetic in the business time zone (China Standard Time, UTC+8, no daylight saving),
 * so "the 31st" and "month end" mean what a user in China sees.
 */
const OFFSET_MS = 8 * 3600_000;
export const DAY_MS = 24 * 3600_000;

/**
 * The anchor plus `months`, clamped to the month's last day: Jan 31 → Feb 28/29 → Mar 31.
 * Always computed from the original anchor, never from a previous clamped date.
 */
export function addMonthsClamped(anchorMs: number, months: number): number {
  const local = new Date(anchorMs + OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastDay);
  const shifted = Date.UTC(
    year,
    month,
    day,
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  );
  return shifted - OFFSET_MS;
}

/** `YYYY-MM-DD` of a moment in the business time zone (usage chart buckets). */
export function businessDate(ms: number): string {
  return new Date(ms + OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM` of a moment in the business time zone (the free plan's credits are issued per month). */
export function businessMonth(ms: number): string {
  return businessDate(ms).slice(0, 7);
}

/** The start (00:00 China time) of the month after the one `ms` falls in. */
export function nextMonthStart(ms: number): number {
  const local = new Date(ms + OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - OFFSET_MS;
}
