export type { LanguageIcon, Model, Voice } from '@vw/contract';
