import type { CreditSource, CreditTool } from '@vw/contract';

/**
 * Mirrors of the contract's credit constants (packages/contract/src/calls/credits.ts). That module
 * builds zod schemas when it loads; copying the plain values keeps zod out of the web bundle.
 * `api.test.ts` fails if any of them drifts from the contract.
 */
export const CreditType = { PlanCredits: 1, Free: 2, PlanCreditsExhausted: 3 } as const;
export const FREE_LEVEL = 100;
export const SUBSCRIPTION_SHORTCUT_LEVEL = 300;
export const REDEEM_CODE_LENGTH = 16;
export const ExportTaskStatus = { Waiting: 0, Done: 2, Failed: 3 } as const;

export const creditSourceNames: Record<CreditSource, string> = {
  membership: '会员积分',
  topup: '充值积分包',
  gift: '平台赠送',
  redeem: '兑换码',
  refund: '退还',
};

export const creditToolNames: Record<CreditTool, string> = {
  tts: '文字转语音',
  voice_changer: '变声器',
  voice_clone: '声音克隆',
  speech_to_text: '语音转文字',
  subtitle_ocr: '字幕识别',
  subtitle_erase: '字幕擦除',
  dubbing: 'AI 配音',
  video_translation: '视频翻译',
  audiobook: '有声书',
  api: 'API 调用',
};

export const creditSources = Object.keys(creditSourceNames) as CreditSource[];
export const creditTools = Object.keys(creditToolNames) as CreditTool[];
