/** Chinese names used by the cloning pages (mirrors of the contract's names; zod stays out of the bundle). */
export const FIX_NAMES = { denoise: '降噪', normalize: '标准化音量', trim: '裁剪静音' } as const;
export type FixName = keyof typeof FIX_NAMES;

export const STATUS_NAMES = { queued: '排队中', training: '训练中', ready: '可用', failed: '失败' } as const;
export const STATUS_COLORS = {
  queued: 'default',
  training: 'processing',
  ready: 'success',
  failed: 'error',
} as const;

export const CHECK_TAGS = {
  pass: { color: 'success', text: '通过' },
  warn: { color: 'warning', text: '建议修复' },
  fail: { color: 'error', text: '不通过' },
  not_checked: { color: 'default', text: '未检查' },
} as const;

export const LANGUAGES = [
  { value: 'zh-CN', label: '普通话' },
  { value: 'yue', label: '粤语' },
  { value: 'en-US', label: '英语' },
];

export const formatMs = (ms: number) =>
  ms >= 60_000
    ? `${Math.floor(ms / 60_000)} 分 ${Math.round((ms % 60_000) / 1000)} 秒`
    : `${(ms / 1000).toFixed(1)} 秒`;
