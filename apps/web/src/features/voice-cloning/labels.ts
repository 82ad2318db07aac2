import { zhCN } from '@/locales/zh-CN.ts';

/** Names used by the cloning pages (mirrors of the contract's names; zod stays out of the bundle). */
const t = zhCN.voiceCloning;

export const FIX_NAMES = t.fixNames;
export type FixName = keyof typeof FIX_NAMES;

export const STATUS_NAMES = t.statusNames;
export const STATUS_COLORS = {
  queued: 'default',
  training: 'processing',
  ready: 'success',
  failed: 'error',
} as const;

export const CHECK_TAGS = {
  pass: { color: 'success', text: t.checkTags.pass },
  warn: { color: 'warning', text: t.checkTags.warn },
  fail: { color: 'error', text: t.checkTags.fail },
  not_checked: { color: 'default', text: t.checkTags.not_checked },
} as const;

export const LANGUAGES = (['zh-CN', 'yue', 'en-US'] as const).map((value) => ({
  value,
  label: t.languages[value],
}));

export const formatMs = (ms: number) =>
  ms >= 60_000
    ? t.minutesSeconds(Math.floor(ms / 60_000), Math.round((ms % 60_000) / 1000))
    : t.seconds((ms / 1000).toFixed(1));
