/** Chrome-family check (Chrome, Edge, Opera, other Chromium builds) for the recommendation tip. */
export function isChromeFamily(userAgent: string, brands?: ReadonlyArray<{ brand: string }> | null): boolean {
  if (brands?.some((b) => /Chromium|Google Chrome|Microsoft Edge/i.test(b.brand))) return true;
  if (/Firefox|FxiOS/i.test(userAgent)) return false;
  return /Chrome\/|Chromium\/|CriOS\//.test(userAgent);
}

export const CHROME_TIP_DELAY_MS = 3000;
export const CHROME_TIP_DURATION_S = 5;
const CHROME_TIP_KEY = 'vw_chrome_tip_shown';

/**
 * After 3 s, once per browser session, non-Chrome-family browsers see a recommendation
 * (spec §2). Returns a cancel function.
 */
export function scheduleChromeTip(show: () => void): () => void {
  const nav = navigator as Navigator & { userAgentData?: { brands?: Array<{ brand: string }> } };
  if (isChromeFamily(nav.userAgent, nav.userAgentData?.brands)) return () => {};
  if (sessionStorage.getItem(CHROME_TIP_KEY)) return () => {};
  const timer = setTimeout(() => {
    sessionStorage.setItem(CHROME_TIP_KEY, '1');
    show();
  }, CHROME_TIP_DELAY_MS);
  return () => clearTimeout(timer);
}
