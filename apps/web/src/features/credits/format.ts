import { formatDate } from '@vw/contract/helpers/time.ts';

/** Credits as shown everywhere: grouped digits, at most two decimals. */
export function formatCredits(n: number): string {
  return n.toLocaleString('zh-CN', { maximumFractionDigits: 2 });
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Unix seconds → `YYYY-MM-DD HH:mm` in local time. */
export function formatDateTime(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${formatDate(unixSeconds)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export { formatDate };
