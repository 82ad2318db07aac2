import { readFile } from 'node:fs/promises';
import * as OpenCC from 'opencc-js';
import { EngineError } from '../errors.ts';
import { createHelperPool, type HelperPool } from '../process/helpers.ts';
import { loadModelRegistry, modelPath } from '../sherpa/models.ts';
import type { g2pwOperations } from './g2pw-worker.ts';
import type { PolyphoneModel } from './polyphones.ts';

/**
 * g2pW (Chen et al., Interspeech 2022; GitYCC/g2pW, the ONNX export PaddleSpeech publishes as
 * G2PWModel_1.1): a BERT that reads a whole sentence and, for one polyphone in it, scores the readings
 * of a label list (POLYPHONIC_CHARS.txt: character, tab, reading — bopomofo with a tone digit in the
 * release, pinyin in the CPP data), masked to that character's own readings.
 *
 * One query per polyphone, as the published code builds them: the sentence lower-cased, one token per
 * character (a run of Latin letters and digits is a word split by WordPiece; spaces get no token),
 * [CLS] … [SEP]; input_ids / token_type_ids (0) / attention_mask (1) of shape [queries, tokens],
 * phoneme_mask float [queries, labels] (1 for the character's readings), char_ids [queries] (the
 * character's index in the sorted polyphone list), position_ids [queries] (its token, [CLS] = 0).
 * Output [queries, labels]: probabilities; the best masked label is the reading.
 * The release was trained on Traditional characters (its converters turn Simplified text into
 * Traditional with OpenCC s2tw first); so is the sentence here when that keeps its length.
 * Runs in a helper process (g2pw-worker.ts) so that the server's event loop never waits on the BERT.
 */

export interface G2pwFiles {
  model: string;
  vocab: string;
  polyphonic: string;
  bopomofo?: string;
}

export interface G2pwAssets {
  vocab: Map<string, number>;
  /** Sorted readings (the model's output order). */
  labels: string[];
  /** Sorted characters (char_ids). */
  chars: string[];
  /** Character → indices of its readings in `labels`. */
  readings: Map<string, number[]>;
  /** Bopomofo without tone → pinyin without tone. */
  bopomofo: Record<string, string>;
}

/** Code-point order, as the published code sorts (Python's string order). */
const byCodePoint = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

export async function loadG2pwAssets(files: G2pwFiles): Promise<G2pwAssets> {
  const vocab = new Map<string, number>();
  (await readFile(files.vocab, 'utf8')).split('\n').forEach((line, i) => {
    const token = line.replace(/\r$/, '');
    if (token && !vocab.has(token)) vocab.set(token, i);
  });
  const pairs = (await readFile(files.polyphonic, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => line.replace(/\r$/, '').split('\t'))
    .filter((p): p is [string, string] => p.length >= 2 && !!p[0] && !!p[1]);
  const labels = [...new Set(pairs.map((p) => p[1]))].sort(byCodePoint);
  const index = new Map(labels.map((l, i) => [l, i]));
  const readings = new Map<string, number[]>();
  for (const [ch, label] of pairs) {
    const list = readings.get(ch) ?? [];
    list.push(index.get(label)!);
    readings.set(ch, list);
  }
  const chars = [...readings.keys()].sort(byCodePoint);
  const bopomofo = files.bopomofo
    ? (JSON.parse(await readFile(files.bopomofo, 'utf8')) as Record<string, string>)
    : {};
  for (const special of ['[CLS]', '[SEP]', '[UNK]']) {
    if (!vocab.has(special)) {
      throw new EngineError(
        'model_invalid',
        '多音字模型不可用，请联系管理员',
        `${files.vocab} has no ${special}`,
      );
    }
  }
  return { vocab, labels, chars, readings, bopomofo };
}

/** WordPiece (greedy longest match, `##` continuations) of one lower-cased Latin/digit word. */
function wordPiece(word: string, vocab: Map<string, number>): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < word.length) {
    let end = word.length;
    let piece = '';
    for (; end > start; end--) {
      const sub = (start > 0 ? '##' : '') + word.slice(start, end);
      if (vocab.has(sub)) {
        piece = sub;
        break;
      }
    }
    if (!piece) return ['[UNK]'];
    out.push(piece);
    start = end;
  }
  return out;
}

/** Token ids of a sentence with [CLS]/[SEP], and each character's token among them ([CLS] = 0; -1: a space). */
export function tokenize(text: string, vocab: Map<string, number>): { ids: number[]; tokenOf: number[] } {
  const chars = [...text.toLowerCase()];
  const tokens: string[] = ['[CLS]'];
  const tokenOf: number[] = [];
  for (let i = 0; i < chars.length; ) {
    if (chars[i] === ' ') {
      tokenOf.push(-1);
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && /[a-z0-9]/.test(chars[j])) j++;
    if (j > i) {
      // A word: its characters map to the piece they fall in.
      const pieces = wordPiece(chars.slice(i, j).join(''), vocab);
      let at = i;
      for (const p of pieces) {
        const len = p === '[UNK]' ? j - i : p.replace(/^##/, '').length;
        for (let k = 0; k < len; k++) tokenOf.push(tokens.length);
        at += len;
        tokens.push(p);
      }
      while (at++ < j) tokenOf.push(tokens.length - 1);
      i = j;
      continue;
    }
    tokenOf.push(tokens.length);
    tokens.push(vocab.has(chars[i]) ? chars[i] : '[UNK]');
    i++;
  }
  tokens.push('[SEP]');
  return { ids: tokens.map((t) => vocab.get(t) ?? vocab.get('[UNK]')!), tokenOf };
}

/** Characters PaddleSpeech's converter leaves to its rules (tone sandhi and the like), not to the model. */
const LEFT_TO_RULES = new Set([...'一不和咋嗲剖差攢倒難奔勁拗肖瘙誒泊听']);

let s2tw: ((s: string) => string) | undefined;
/** The sentence as the model was trained on it: Traditional (Taiwan) characters, when that keeps its length. */
export function traditional(text: string): string {
  s2tw ??= OpenCC.Converter({ from: 'cn', to: 'tw' });
  const t = s2tw(text);
  return [...t].length === [...text].length ? t : text;
}

export interface G2pwQuery {
  /** The character the model knows (Traditional where the list has it). */
  char: string;
  /** Position in the sentence (code points). */
  at: number;
}

/** The queries the model can answer among `positions` of a sentence (others get no opinion). */
export function queriesOf(text: string, positions: number[], assets: G2pwAssets): G2pwQuery[] {
  const plain = [...text];
  const trad = [...traditional(text)];
  const out: G2pwQuery[] = [];
  for (const at of positions) {
    const char = [trad[at], plain[at]].find((c) => c && assets.readings.has(c) && !LEFT_TO_RULES.has(c));
    if (char) out.push({ char, at });
  }
  return out;
}

/** A label as tone-numbered pinyin: pinyin labels as they are (lu:3 → lü3), bopomofo through the table. */
export function labelPinyin(label: string, bopomofo: Record<string, string>): string {
  const tone = label.slice(-1);
  if (!/[1-5]/.test(tone)) return '';
  const body = label.slice(0, -1);
  if (/^[a-z:ü]+$/.test(body)) return body.replace('u:', 'ü') + tone;
  const pinyin = bopomofo[body];
  return pinyin ? pinyin.toLowerCase().replace('u:', 'ü').replace('v', 'ü') + tone : '';
}

/** Sentence pieces the model reads one at a time: cut after 。！？； and line breaks, at most `max` characters. */
export function sentencesOf(text: string, max = 500): Array<[number, number]> {
  const chars = [...text];
  const out: Array<[number, number]> = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    if ('。！？；!?;\n'.includes(chars[i]) || i - start + 1 >= max) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < chars.length) out.push([start, chars.length]);
  return out;
}

/**
 * The `g2p` entry of the models folder's models.json with every file on disk, or null. Read at each
 * sentence batch, so an install or a removal counts from the next one.
 */
export async function findG2pwModel(modelsDir: string | undefined): Promise<G2pwFiles | null> {
  if (!modelsDir) return null;
  const models = await loadModelRegistry(modelsDir, (m) => m.kind === 'g2p').catch(() => []);
  const files = models[0]?.files;
  if (
    typeof files?.model !== 'string' ||
    typeof files.vocab !== 'string' ||
    typeof files.polyphonic !== 'string'
  )
    return null;
  return {
    model: modelPath(modelsDir, files.model),
    vocab: modelPath(modelsDir, files.vocab),
    polyphonic: modelPath(modelsDir, files.polyphonic),
    ...(typeof files.bopomofo === 'string' ? { bopomofo: modelPath(modelsDir, files.bopomofo) } : {}),
  };
}

export interface G2pwPolyphoneModel extends PolyphoneModel {
  close(): Promise<void>;
}

/**
 * The polyphone model of a models folder (polyphones.ts's setPolyphoneModel): no opinion while no g2pW
 * is installed; else the helper process answers. The helper starts on first use and stays (idle, it
 * keeps nothing alive); a model that cannot run fails the call, and the rules decide.
 */
export function createG2pwModel(modelsDir: string | undefined): G2pwPolyphoneModel {
  let pool: HelperPool<typeof g2pwOperations> | undefined;
  const helper = () =>
    (pool ??= createHelperPool<typeof g2pwOperations>({
      script: new URL('./g2pw-worker.ts', import.meta.url),
      keepStderr: true,
      errors: {
        crashed: ({ exit, stderr }) =>
          new EngineError(
            'engine_unavailable',
            '多音字模型出错，已按规则读音',
            `g2pW helper exited with ${exit}: ${stderr.trim().slice(-500)}`,
          ),
      },
    }));
  return {
    id: 'g2pw',
    async predict(text, positions) {
      const files = await findG2pwModel(modelsDir);
      if (!files || !positions.length) return positions.map(() => '');
      return helper().call('predict', { files, text, positions });
    },
    async close() {
      await pool?.close();
      pool = undefined;
    },
  };
}
