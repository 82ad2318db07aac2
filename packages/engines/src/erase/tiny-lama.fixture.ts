/**
 * An ONNX graph with the LaMa export's signature (image float32 [1,3,512,512] 0..1, mask
 * [1,1,512,512], output [1,3,512,512] 0..255), written byte by byte: it keeps the picture where the
 * mask is 0 and paints TINY_LAMA_RGB where it is 1. Worthless as an inpainter, it lets tests run the
 * real path (catalogue entry, installer, onnxruntime in the helper process, tiles, paste-back) and
 * tell the model's pixels from anything else.
 */
import { FLOAT, node, onnxModel, tensor, valueInfo } from '../sherpa/onnx.fixture.ts';

/** The colour the tiny model paints the holes with (RGB 0..255). */
export const TINY_LAMA_RGB = [20, 60, 20] as const;

/** The same colour in the fill's YUV (BT.601 studio range, as lama.ts converts). */
export const TINY_LAMA_YUV = {
  y: Math.round(16 + 0.257 * 20 + 0.504 * 60 + 0.098 * 20),
  u: Math.round(128 - 0.148 * 20 - 0.291 * 60 + 0.439 * 20),
  v: Math.round(128 + 0.439 * 20 - 0.368 * 60 - 0.071 * 20),
};

export function tinyLamaModel(): Buffer {
  const graph = Buffer.concat([
    // output = image · 255 · (1 − mask) + colour · mask
    node('Mul', ['image', 'k255'], ['scaled']),
    node('Sub', ['one', 'mask'], ['keep']),
    node('Mul', ['scaled', 'keep'], ['kept']),
    node('Mul', ['mask', 'colour'], ['painted']),
    node('Add', ['kept', 'painted'], ['output']),
    tensor('k255', FLOAT, [], [255]),
    tensor('one', FLOAT, [], [1]),
    tensor('colour', FLOAT, [1, 3, 1, 1], [...TINY_LAMA_RGB]),
    valueInfo(11, 'image', FLOAT, ['batch', 3, 512, 512]),
    valueInfo(11, 'mask', FLOAT, ['batch', 1, 512, 512]),
    valueInfo(12, 'output', FLOAT, ['batch', 3, 512, 512]),
  ]);
  return onnxModel(graph);
}
