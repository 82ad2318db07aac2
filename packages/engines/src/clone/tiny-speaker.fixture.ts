import { FLOAT, int, intAttribute, msg, node, onnxModel, str, valueInfo } from '../sherpa/onnx.fixture.ts';

/**
 * A tiny "speaker embedding" model sherpa-onnx loads like a 3D-Speaker / WeSpeaker file: the mean
 * log-mel spectrum of the window, centred across its 80 bins. Different voices (here: different tone
 * pitches) give different directions; the same voice the same one.
 */
export function tinySpeakerModel(): Buffer {
  const axes = (name: string, ...values: number[]) =>
    msg(5, str(1, name), ...values.map((v) => int(8, v)), int(20, 7));
  const graph = Buffer.concat([
    node('ReduceMean', ['x'], ['spectrum'], axes('axes', 1), intAttribute('keepdims', 0)),
    node('ReduceMean', ['spectrum'], ['level'], axes('axes', 1), intAttribute('keepdims', 1)),
    node('Sub', ['spectrum', 'level'], ['embedding']),
    valueInfo(11, 'x', FLOAT, ['N', 'T', 80]),
    valueInfo(12, 'embedding', FLOAT, ['N', 80]),
  ]);
  return onnxModel(graph, {
    framework: '3d-speaker',
    output_dim: '80',
    sample_rate: '16000',
    normalize_samples: '1',
    language: 'test',
  });
}
