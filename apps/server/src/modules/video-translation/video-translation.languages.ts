import { ESPEAK_PERSONAS } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { DEFAULT_VOICE_MAP } from '../voices/voices.seed.ts';
import { neuralVoiceFor } from '../voices/voices.service.ts';

/*
 * Which languages 视频翻译 offers: targets from TRANSLATE_TARGET_LANGUAGES (others are refused with
 * err_target_language_not_supported), sources as the recognizers and the OCR engine read them.
 */

export const DEFAULT_TARGETS = [
  'en',
  'ja',
  'ko',
  'zh-Hant',
  'es',
  'fr',
  'de',
  'ru',
  'th',
  'vi',
  'pt',
  'it',
  'id',
  'ar',
];

const NAMES: Record<string, string> = {
  auto: '自动识别',
  zh: '中文（简体）',
  'zh-Hans': '中文（简体）',
  'zh-Hant': '中文（繁体）',
  'zh-TW': '中文（台湾繁体）',
  'zh-HK': '中文（香港繁体）',
  yue: '粤语',
  en: '英语',
  ja: '日语',
  ko: '韩语',
  es: '西班牙语',
  fr: '法语',
  de: '德语',
  ru: '俄语',
  th: '泰语',
  vi: '越南语',
  pt: '葡萄牙语',
  it: '意大利语',
  id: '印尼语',
  ar: '阿拉伯语',
  ms: '马来语',
  hi: '印地语',
  tr: '土耳其语',
};

const nameOf = (code: string) => NAMES[code] ?? code;
export const primary = (code: string) => code.toLowerCase().split(/[-_]/)[0] ?? '';

export function targetLanguages(ctx: AppContext): Array<{ code: string; name: string }> {
  const raw = ctx.config.TRANSLATE_TARGET_LANGUAGES?.trim();
  const codes = raw
    ? raw
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
    : DEFAULT_TARGETS;
  return [...new Set(codes)].map((code) => ({ code, name: nameOf(code) }));
}

export const SOURCE_LANGUAGES = ['auto', 'zh', 'en', 'ja', 'ko', 'yue', 'es', 'fr', 'de', 'ru'].map(
  (code) => ({
    code,
    name: nameOf(code),
  }),
);

/** The configured target code matching `code` (case-insensitive), or err_target_language_not_supported. */
export function assertTarget(ctx: AppContext, code: string): string {
  const hit = targetLanguages(ctx).find((t) => t.code.toLowerCase() === code.toLowerCase());
  if (!hit) {
    throw AppError.named(
      'err_target_language_not_supported',
      `不支持翻译成「${code}」：可选 ${targetLanguages(ctx)
        .map((t) => t.name)
        .join('、')}`,
    );
  }
  return hit.code;
}

/**
 * A built-in voice speaking the target language: an installed neural one, else the embedded engine's
 * persona, else the tool's default.
 */
export async function defaultVoiceFor(ctx: AppContext, target: string): Promise<string> {
  const lang = primary(target);
  const neural = await neuralVoiceFor(ctx, lang);
  if (neural) return neural;
  const persona = ESPEAK_PERSONAS.find((p) => primary(p.language) === lang);
  return persona?.id ?? DEFAULT_VOICE_MAP.video_translation!;
}
