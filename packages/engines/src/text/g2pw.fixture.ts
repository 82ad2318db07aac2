/**
 * A model folder with the g2pW export's signature, written byte by byte: the six inputs
 * (input_ids, token_type_ids, attention_mask int64 [batch, tokens]; phoneme_mask float [batch, labels];
 * char_ids, position_ids int64 [batch]) and probabilities [batch, labels] out. The tiny graph answers
 * phoneme_mask × a fixed preference per label, so it always picks the same reading of a character:
 * 還 huán and 長 zhǎng, whatever the sentence. Worthless as a model, it lets tests run the real path
 * (registry, helper process, onnxruntime, tokens, labels, bopomofo → pinyin) and tell its readings
 * from the rules'.
 */
import { crc32 } from 'node:zlib';
import { FLOAT, INT64, node, onnxModel, tensor, valueInfo } from '../sherpa/onnx.fixture.ts';

/** Traditional characters and bopomofo, as in the release's POLYPHONIC_CHARS.txt. */
export const TINY_G2PW_POLYPHONIC = '還\tㄏㄞ2\n還\tㄏㄨㄢ2\n長\tㄔㄤ2\n長\tㄓㄤ3\n';
export const TINY_G2PW_BOPOMOFO = { ㄏㄞ: 'hai', ㄏㄨㄢ: 'huan', ㄔㄤ: 'chang', ㄓㄤ: 'zhang' };
/** Labels in the model's (code-point) order: ㄏㄞ2, ㄏㄨㄢ2, ㄓㄤ3, ㄔㄤ2; the preferred are huan2 and zhang3. */
const PREFERENCE = [0.1, 0.9, 0.8, 0.2];

/** BERT's special tokens and a few characters; any other is [UNK], as in a real vocabulary. */
export const TINY_G2PW_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  ...'他還沒來這條路很長，。',
  'ai',
  '##pad',
]
  .join('\n')
  .concat('\n');

export function tinyG2pwModel(): Buffer {
  const L = PREFERENCE.length;
  const graph = Buffer.concat([
    node('Mul', ['phoneme_mask', 'preference'], ['probs']),
    tensor('preference', FLOAT, [L], PREFERENCE),
    valueInfo(11, 'input_ids', INT64, ['batch', 'tokens']),
    valueInfo(11, 'token_type_ids', INT64, ['batch', 'tokens']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'tokens']),
    valueInfo(11, 'phoneme_mask', FLOAT, ['batch', L]),
    valueInfo(11, 'char_ids', INT64, ['batch']),
    valueInfo(11, 'position_ids', INT64, ['batch']),
    valueInfo(12, 'probs', FLOAT, ['batch', L]),
  ]);
  return onnxModel(graph);
}

/** The files of the tiny model folder, by name. */
export function tinyG2pwFiles(): Record<string, Buffer | string> {
  return {
    'g2pW.onnx': tinyG2pwModel(),
    'POLYPHONIC_CHARS.txt': TINY_G2PW_POLYPHONIC,
    'bopomofo_to_pinyin_wo_tune_dict.json': JSON.stringify(TINY_G2PW_BOPOMOFO),
  };
}

/** A .zip of stored (uncompressed) entries, as `unzip` reads any archive; names are UTF-8. */
export function storedZip(files: Record<string, Buffer | string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(0x21, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    central.push(entry, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
