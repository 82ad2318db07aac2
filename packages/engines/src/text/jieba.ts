import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

let jieba: Jieba | undefined;

/**
 * jieba with its own dictionary (MIT, shipped in the npm package), loaded once for the process and
 * shared by the readings (text/polyphones.ts) and the casting (book/speakers.ts). Callers tag without
 * HMM guessing, so an unknown name stays single characters.
 */
export function segmenter(): Jieba {
  if (!jieba) {
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as typeof import('@node-rs/jieba/dict');
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}
