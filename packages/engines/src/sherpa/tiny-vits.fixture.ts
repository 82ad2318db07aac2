/**
 * Builds, byte by byte, the smallest ONNX graph sherpa-onnx accepts as a VITS model: it reads
 * characters (the "characters" frontend) and turns each token id into 25 ms of a level signal. It says
 * nothing about speech quality; it lets tests load a real model and generate real audio through
 * sherpa-onnx without downloading weights.
 */

const utf8 = (s: string) => Buffer.from(s, 'utf8');

function varint(value: number): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(value));
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? byte | 0x80 : byte);
  } while (v);
  return Buffer.from(out);
}

// Protocol-buffer fields: varint (wire type 0) and length-delimited (wire type 2).
const int = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);
const bytes = (field: number, payload: Buffer) =>
  Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
const str = (field: number, value: string) => bytes(field, utf8(value));
const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

const FLOAT = 1;
const INT64 = 7;

/** ValueInfoProto with a tensor type; dims are numbers or symbolic names. */
const valueInfo = (field: number, name: string, elemType: number, dims: Array<number | string>) =>
  msg(
    field,
    str(1, name),
    msg(
      2,
      msg(
        1,
        int(1, elemType),
        msg(2, ...dims.map((d) => msg(1, typeof d === 'number' ? int(1, d) : str(2, d)))),
      ),
    ),
  );

const node = (opType: string, inputs: string[], outputs: string[], ...attributes: Buffer[]) =>
  msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(4, opType), ...attributes);

const intAttribute = (name: string, value: number) => msg(5, str(1, name), int(3, value), int(20, 2));

function tensor(name: string, type: number, dims: number[], values: number[]): Buffer {
  const raw = Buffer.alloc(values.length * (type === INT64 ? 8 : 4));
  for (const [i, v] of values.entries()) {
    if (type === INT64) raw.writeBigInt64LE(BigInt(v), i * 8);
    else raw.writeFloatLE(v, i * 4);
  }
  return msg(5, ...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));
}

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
  return Buffer.concat([
    int(1, 7), // ir_version
    str(2, 'voice-workbench tests'),
    bytes(7, graph),
    msg(8, str(1, ''), int(2, 13)), // opset 13
    ...Object.entries(metadata).map(([k, v]) => msg(14, str(1, k), str(2, v))),
  ]);
}

export function tinyVitsTokens(): string {
  return [...TINY_VITS_TOKENS].map((c, i) => `${c} ${i + 1}`).join('\n');
}
