export {
  backTranslate,
  createEmbedder,
  DRIFT_THRESHOLD,
  type DriftResult,
  type EmbedFn,
  tokenOverlap,
} from './backtranslate.ts';
export {
  guessLanguage,
  isChinese,
  isTraditionalChinese,
  languageLabel,
  primaryLanguage,
  toSimplified,
  toTraditional,
} from './languages.ts';
export { PUNCTUATE_PROMPT_MARK, type PunctuateResult, punctuate } from './punctuate.ts';
export {
  displayLength,
  distributeTranslation,
  fitsLines,
  flattenText,
  type SplitCue,
  type SplitOptions,
  splitCues,
  wrapLines,
} from './split.ts';
export {
  containsTerm,
  type GlossaryEntry,
  glossaryMisses,
  relevantGlossary,
  SUMMARY_PROMPT_MARK,
  summarize,
  TRANSLATE_PROMPT_MARK,
  type TranslateLine,
  type TranslateOptions,
  type TranslatePrefs,
  type TranslateResult,
  type TranslationCache,
  translateLines,
  translationCacheKey,
  validateTranslation,
} from './translate.ts';
