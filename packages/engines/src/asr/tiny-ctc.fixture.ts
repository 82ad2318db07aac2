/**
 * The smallest ONNX graph sherpa-onnx accepts as an offline zipformer CTC recognizer, written byte by
 * byte: whatever it hears, it says 你 at 0 s, 好 at 0.48 s, 世 at 1.0 s and 界 at 2.0 s into each chunk
 * — as far as the chunk is long. Worthless as a recognizer, it lets tests run the real sherpa-onnx
 * recognition path (features, CTC greedy search, token timestamps) in the real child process.
 */
import { FLOAT, INT64, node, onnxModel, tensor, valueInfo } from '../sherpa/onnx.fixture.ts';

export const TINY_CTC_TOKENS = ['<blk>', '你', '好', '世', '界'];
/** Output frame (40 ms each: 10 ms features, subsampled by 4) → token id. */
export const TINY_CTC_EMISSIONS: Array<[frame: number, token: number]> = [
  [0, 1],
  [12, 2],
  [25, 3],
  [50, 4],
];
export const TINY_CTC_FRAME_MS = 40;
const MAX_FRAMES = 1500; // one minute of output frames

export function tinyCtcModel(): Buffer {
  const vocab = TINY_CTC_TOKENS.length;
  // Log-probabilities per output frame: blank everywhere but at the emission frames.
  const table = new Array<number>(MAX_FRAMES * vocab).fill(-10);
  for (let f = 0; f < MAX_FRAMES; f++) table[f * vocab] = 0;
  for (const [f, token] of TINY_CTC_EMISSIONS) {
    table[f * vocab] = -10;
    table[f * vocab + token] = 0;
  }
  const graph = Buffer.concat([
    // T' = (input frames) / 4, the subsampling sherpa assumes for zipformer CTC.
    node('Shape', ['x'], ['x_shape']),
    node('Gather', ['x_shape', 'one'], ['frames']),
    node('Div', ['frames', 'four'], ['out_frames']),
    node('Unsqueeze', ['out_frames', 'axis0'], ['ends']),
    node('Slice', ['table', 'zero', 'ends', 'axis1'], ['log_probs']),
    node('Div', ['x_lens', 'four'], ['log_probs_len']),
    tensor('table', FLOAT, [1, MAX_FRAMES, vocab], table),
    tensor('one', INT64, [], [1]),
    tensor('four', INT64, [], [4]),
    tensor('axis0', INT64, [1], [0]),
    tensor('zero', INT64, [1], [0]),
    tensor('axis1', INT64, [1], [1]),
    valueInfo(11, 'x', FLOAT, ['N', 'T', 80]),
    valueInfo(11, 'x_lens', INT64, ['N']),
    valueInfo(12, 'log_probs', FLOAT, ['N', 'S', vocab]),
    valueInfo(12, 'log_probs_len', INT64, ['N']),
  ]);
  return onnxModel(graph);
}

export const tinyCtcTokens = () => TINY_CTC_TOKENS.map((t, i) => `${t} ${i}`).join('\n');
