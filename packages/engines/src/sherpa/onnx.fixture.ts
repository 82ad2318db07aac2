/**
 * Just enough of the ONNX protobuf format to write tiny test models byte by byte (tiny-vits, the
 * tiny CTC recognizer): sherpa-onnx loads them like any downloaded model.
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
export const int = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);
export const bytes = (field: number, payload: Buffer) =>
  Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
export const str = (field: number, value: string) => bytes(field, utf8(value));
export const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

export const FLOAT = 1;
export const INT64 = 7;

/** ValueInfoProto with a tensor type; dims are numbers or symbolic names. */
export const valueInfo = (field: number, name: string, elemType: number, dims: Array<number | string>) =>
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

export const node = (opType: string, inputs: string[], outputs: string[], ...attributes: Buffer[]) =>
  msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(4, opType), ...attributes);

export const intAttribute = (name: string, value: number) => msg(5, str(1, name), int(3, value), int(20, 2));

export function tensor(name: string, type: number, dims: number[], values: number[]): Buffer {
  const raw = Buffer.alloc(values.length * (type === INT64 ? 8 : 4));
  for (const [i, v] of values.entries()) {
    if (type === INT64) raw.writeBigInt64LE(BigInt(v), i * 8);
    else raw.writeFloatLE(v, i * 4);
  }
  return msg(5, ...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));
}

/** A ModelProto around a graph (opset 13), with metadata entries sherpa-onnx reads. */
export function onnxModel(graph: Buffer, metadata: Record<string, string> = {}): Buffer {
  return Buffer.concat([
    int(1, 7), // ir_version
    str(2, 'voice-workbench tests'),
    bytes(7, graph),
    msg(8, str(1, ''), int(2, 13)), // opset 13
    ...Object.entries(metadata).map(([k, v]) => msg(14, str(1, k), str(2, v))),
  ]);
}
