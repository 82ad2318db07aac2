/**
 * Plain credit constants, free of zod so the web bundle can import them directly
 * (`@vw/contract/constants/credits.ts`); the calls in calls/credits.ts build on them.
 */

/** Where a lot of credits came from. */
export const creditSourceNames = {
  membership: '会员积分',
  topup: '充值积分包',
  gift: '平台赠送',
  redeem: '兑换码',
  refund: '退还',
} as const;
export type CreditSource = keyof typeof creditSourceNames;

/** Tools that spend credits (task types of the pricing table). */
export const creditToolNames = {
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
} as const;
export type CreditTool = keyof typeof creditToolNames;

/**
 * credit_type of the tenant bonus: 1 a paid plan with plan credits left; 2 the free plan;
 * 3 a paid plan whose credits of the current period are used up (the previous entry is shown).
 */
export const CreditType = { PlanCredits: 1, Free: 2, PlanCreditsExhausted: 3 } as const;

export const FREE_LEVEL = 100;
/** The subscription shortcut targets the first plan at or above this level (spec §9). */
export const SUBSCRIPTION_SHORTCUT_LEVEL = 300;

/** Export status: 0 waiting, 2 done (download_url, file_name), 3 failed. */
export const ExportTaskStatus = { Waiting: 0, Done: 2, Failed: 3 } as const;

export const REDEEM_CODE_LENGTH = 16;
