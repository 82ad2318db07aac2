/**
 * The LaMa helper process (lama.ts): one onnxruntime-node session (the bundled CPU build, installed
 * with the OCR engine) of the model file it is given, run on one 512 × 512 tile per call.
 */
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.ts';
import { serveHelper } from '../process/serve.ts';

const sessions = new Map<string, Promise<ort.InferenceSession>>();

function session(model: string): Promise<ort.InferenceSession> {
  let s = sessions.get(model);
  if (!s) {
    s = ort.InferenceSession.create(model, {
      // Two cores on the box this runs on; the erase itself waits for the tile meanwhile.
      intraOpNumThreads: Math.max(1, Math.min(2, availableParallelism())),
      interOpNumThreads: 1,
    }).then((created) => {
      for (const name of ['image', 'mask']) {
        if (!created.inputNames.includes(name)) {
          throw new EngineError(
            'model_invalid',
            '画面修补模型不可用，请联系管理员',
            `${model} is not a LaMa export: its inputs are ${created.inputNames.join(', ')}, expected image and mask`,
          );
        }
      }
      return created;
    });
    s.catch(() => sessions.delete(model));
    sessions.set(model, s);
  }
  return s;
}

/** Opens the model (so a broken file is found before the erase starts); resolves its input names. */
async function load(model: string): Promise<string[]> {
  return [...(await session(model)).inputNames];
}

/** image: RGB planes 0..1, mask: 1 where to fill, both size × size; resolves the RGB planes 0..255. */
async function run(input: {
  model: string;
  size: number;
  image: Float32Array;
  mask: Float32Array;
}): Promise<Float32Array> {
  const s = await session(input.model);
  const { size } = input;
  const out = await s.run({
    image: new ort.Tensor('float32', input.image, [1, 3, size, size]),
    mask: new ort.Tensor('float32', input.mask, [1, 1, size, size]),
  });
  const data = out[s.outputNames[0]]?.data;
  if (!(data instanceof Float32Array) || data.length !== 3 * size * size) {
    throw new EngineError(
      'model_invalid',
      '画面修补模型不可用，请联系管理员',
      `${input.model} answered ${data?.length ?? 'nothing'} values, expected float32 [1, 3, ${size}, ${size}]`,
    );
  }
  return data;
}

export const lamaOperations = { load, run };

serveHelper(lamaOperations);
