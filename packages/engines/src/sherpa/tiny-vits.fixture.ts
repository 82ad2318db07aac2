/**
 * Builds, byte by byte, the smallest ONNX graph sherpa-onnx accepts as a VITS model: it reads
 * characters (the "characters" frontend) and turns each token id into 25 ms of a level signal. It says
 * nothing about speech quality; it lets tests load a real model and generate real audio through
 * sherpa-onnx without downloading weights.
 */

import { FLOAT, INT64, intAttribute, node, onnxModel, str, tensor, valueInfo } from './onnx.fixture.ts';

export const TINY_VITS_SAMPLE_RATE = 16_000;
/** Samples produced per input character. */
export const TINY_VITS_SAMPLES_PER_TOKEN = 400;
/** The characters the model knows (others are skipped by sherpa-onnx). */
export const TINY_VITS_TOKENS = 'abcdefghijklmnopqrstuvwxyz.,!?';

export function tinyVitsModel(): Buffer {
  const graph = Buffer.concat([
    node('Cast', ['x'], ['xf'], intAttribute('to', FLOAT)),
    node('Mul', ['xf', 'gain'], ['xs']),
    node('Unsqueeze', ['xs', 'axis'], ['xu']),
    node('Tile', ['xu', 'repeats'], ['xt']),
    node('Reshape', ['xt', 'shape'], ['y']),
    str(2, 'tiny-vits'),
    tensor('gain', FLOAT, [], [0.02]),
    tensor('axis', INT64, [1], [2]),
    tensor('repeats', INT64, [3], [1, 1, TINY_VITS_SAMPLES_PER_TOKEN]),
    tensor('shape', INT64, [3], [1, 1, -1]),
    valueInfo(11, 'x', INT64, [1, 'N']),
    valueInfo(11, 'x_length', INT64, [1]),
    valueInfo(11, 'noise_scale', FLOAT, [1]),
    valueInfo(11, 'length_scale', FLOAT, [1]),
    valueInfo(11, 'noise_scale_w', FLOAT, [1]),
    valueInfo(12, 'y', FLOAT, [1, 1, 'T']),
  ]);
  const metadata: Record<string, string> = {
    sample_rate: String(TINY_VITS_SAMPLE_RATE),
    n_speakers: '1',
    language: 'English',
    comment: 'tiny test model',
    frontend: 'characters',
    add_blank: '0',
    use_eos_bos: '0',
  };
  return onnxModel(graph, metadata);
}

export function tinyVitsTokens(): string {
  return [...TINY_VITS_TOKENS].map((c, i) => `${c} ${i + 1}`).join('\n');
}
