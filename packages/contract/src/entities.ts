import { z } from 'zod';

/** User type: 2 is a signed-in user; 1 is refused (spec §3, §6). */
export const UserType = { Refused: 1, User: 2 } as const;

/** Questionnaire status: 2 shows the survey; 1 or 3 trigger the video preview (spec §4). */
export const QuestionnaireStatus = { Done: 1, Pending: 2, Skipped: 3 } as const;

export const userInfo = z.object({
  uid: z.string(),
  type: z.number().int(),
  phone: z.string(),
  email: z.string(),
  nickname: z.string(),
  avatar_url: z.string(),
  user_persona_questionnaire_status: z.number().int(),
  has_password: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const secureTokens = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** seconds */
  expires_in: z.number().int(),
  /** seconds */
  refresh_token_expires_in: z.number().int(),
});
export type SecureTokens = z.infer<typeof secureTokens>;

export const appConfig = z.object({
  voice_clone_config: z.object({ voice_clone_switch: z.boolean() }),
});
export type AppConfig = z.infer<typeof appConfig>;

export const tenantBonus = z.object({
  level: z.number().int(),
  credit_type: z.number().int(),
  title: z.string(),
  /** unix seconds */
  expired_time: z.number().int(),
  credit_balance: z.number(),
  is_free_package: z.number().int(),
  is_annual_package: z.number().int(),
});
export type TenantBonus = z.infer<typeof tenantBonus>;

export const speechSynthesisItem = z.object({
  text: z.string(),
  text_md5: z.string(),
  voice_id: z.string(),
  model_id: z.string(),
  speed: z.number(),
});
export type SpeechSynthesisItem = z.infer<typeof speechSynthesisItem>;

export const redeemResult = z.object({ package_name: z.string(), expire_time: z.number().int() });
export type RedeemResult = z.infer<typeof redeemResult>;

export const exportStatus = z.object({
  status: z.number().int(),
  download_url: z.string().optional(),
  file_name: z.string().optional(),
});
export type ExportStatus = z.infer<typeof exportStatus>;
