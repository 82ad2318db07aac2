import type { WebhookDeliveryView } from '@vw/contract';
import { formatDateTime } from '@/features/credits/format.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const names = zhCN.apiKeys.deliveryStatus;

/** The tag of a delivery: a pending one never tried yet is queued, one tried already is retrying. */
export function deliveryStatusTag(d: Pick<WebhookDeliveryView, 'status' | 'attempts'>): {
  label: string;
  color: string;
} {
  if (d.status === 'succeeded') return { label: names.succeeded, color: 'green' };
  if (d.status === 'failed') return { label: names.failed, color: 'red' };
  return d.attempts > 0 ? { label: names.retrying, color: 'orange' } : { label: names.queued, color: 'blue' };
}

/** The signed body, indented for reading; shown as sent if it is not JSON. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** Unix seconds → `YYYY-MM-DD HH:mm:ss` (deliveries seconds apart must be told apart). */
export function formatDeliveryTime(unixSeconds: number): string {
  const s = String(new Date(unixSeconds * 1000).getSeconds()).padStart(2, '0');
  return `${formatDateTime(unixSeconds)}:${s}`;
}
