/**
 * The g2pW helper process (g2pw.ts): one onnxruntime-node session per model file, and its vocabulary
 * and labels; answers the readings of a sentence's polyphones, one batch of queries per sentence piece.
 */
import { stat } from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.ts';
import { serveHelper } from '../process/serve.ts';
import {
  type G2pwAssets,
  type G2pwFiles,
  labelPinyin,
  loadG2pwAssets,
  queriesOf,
  sentencesOf,
  tokenize,
  traditional,
} from './g2pw.ts';

const INPUTS = ['input_ids', 'token_type_ids', 'attention_mask', 'phoneme_mask', 'char_ids', 'position_ids'];
/** BERT's limit, [CLS] and [SEP] included. */
const MAX_TOKENS = 512;

interface Loaded {
  session: ort.InferenceSession;
  assets: G2pwAssets;
}
const loaded = new Map<string, Promise<Loaded>>();

/** Loads once per model file as it is on disk: a broken file fails every sentence at once, not a reload each. */
async function load(files: G2pwFiles): Promise<Loaded> {
  const key = `${JSON.stringify(files)} ${(await stat(files.model)).mtimeMs}`;
  let l = loaded.get(key);
  if (!l) {
    l = (async () => {
      const [session, assets] = await Promise.all([
        // Two cores on the box this runs on; synthesis waits for the readings meanwhile.
        ort.InferenceSession.create(files.model, { intraOpNumThreads: 2, interOpNumThreads: 1 }),
        loadG2pwAssets(files),
      ]);
      const missing = INPUTS.filter((n) => !session.inputNames.includes(n));
      if (missing.length) {
        throw new EngineError(
          'model_invalid',
          '多音字模型不可用，请联系管理员',
          `${files.model} is not a g2pW export: it lacks the inputs ${missing.join(', ')}`,
        );
      }
      return { session, assets };
    })();
    l.catch(() => {}); // observed by the calls
    loaded.set(key, l);
  }
  return l;
}

const int64 = (values: number[], dims: number[]) =>
  new ort.Tensor(
    'int64',
    BigInt64Array.from(values, (v) => BigInt(v)),
    dims,
  );

/** Tone-numbered readings for `positions` of `text` ('' where the model has no opinion). */
async function predict(input: { files: G2pwFiles; text: string; positions: number[] }): Promise<string[]> {
  const { session, assets } = await load(input.files);
  const out = input.positions.map(() => '');
  const slot = new Map(input.positions.map((p, n) => [p, n]));
  const chars = [...input.text];
  for (const [start, end] of sentencesOf(input.text, MAX_TOKENS - 12)) {
    const here = input.positions.filter((p) => p >= start && p < end).map((p) => p - start);
    if (!here.length) continue;
    const sentence = chars.slice(start, end).join('');
    const queries = queriesOf(sentence, here, assets);
    if (!queries.length) continue;
    const { ids, tokenOf } = tokenize(traditional(sentence), assets.vocab);
    if (ids.length > MAX_TOKENS) continue;
    const B = queries.length;
    const T = ids.length;
    const L = assets.labels.length;
    const mask = new Float32Array(B * L);
    queries.forEach((q, b) => {
      for (const l of assets.readings.get(q.char)!) mask[b * L + l] = 1;
    });
    const result = await session.run({
      input_ids: int64(
        queries.flatMap(() => ids),
        [B, T],
      ),
      token_type_ids: int64(new Array(B * T).fill(0), [B, T]),
      attention_mask: int64(new Array(B * T).fill(1), [B, T]),
      phoneme_mask: new ort.Tensor('float32', mask, [B, L]),
      char_ids: int64(
        queries.map((q) => assets.chars.indexOf(q.char)),
        [B],
      ),
      position_ids: int64(
        queries.map((q) => tokenOf[q.at]),
        [B],
      ),
    });
    const probs = result[session.outputNames[0]]?.data;
    if (!(probs instanceof Float32Array) || probs.length !== B * L) {
      throw new EngineError(
        'model_invalid',
        '多音字模型不可用，请联系管理员',
        `${input.files.model} answered ${probs?.length ?? 'nothing'} values, expected float32 [${B}, ${L}]`,
      );
    }
    queries.forEach((q, b) => {
      // The best of the character's own readings (the export masks too; this keeps to the list).
      let best = -1;
      for (const l of assets.readings.get(q.char)!)
        if (best < 0 || probs[b * L + l] > probs[b * L + best]) best = l;
      out[slot.get(q.at + start)!] = labelPinyin(assets.labels[best], assets.bopomofo);
    });
  }
  return out;
}

export const g2pwOperations = { predict };

serveHelper(g2pwOperations);
