import { Inflate } from 'fflate';
import { BookImportError, type ImportLimits } from './types.ts';

/**
 * A ZIP reader that never trusts the archive: the central directory is read first and refused when it
 * holds too many entries, declares too much data in total or an entry compressed more than `maxRatio`;
 * entries are then inflated in slices with the output counted, so an entry that inflates past what it
 * declared (a lying header) is stopped at once instead of filling memory.
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const bad = (what: string) =>
  new BookImportError(3000, `文件检查未通过：${what}。请确认文件完整、未加密，并重新导出后再上传。`);
const bomb = () =>
  new BookImportError(
    3000,
    '文件检查未通过：压缩包解压后过大或压缩比异常（疑似压缩炸弹），已拒绝。请上传正常导出的电子书文件。',
  );

export class ZipReader {
  readonly entries = new Map<string, ZipEntry>();
  private used = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly limits: ImportLimits,
  ) {
    // End of central directory: the last 22 bytes plus up to 64 KiB of comment.
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
      if (buf.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw bad('不是有效的压缩包（找不到目录）');
    const count = buf.readUInt16LE(eocd + 10);
    const cdSize = buf.readUInt32LE(eocd + 12);
    const cdOffset = buf.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff) throw bad('不支持 ZIP64 格式');
    if (count > limits.maxEntries) {
      throw new BookImportError(
        3000,
        `文件检查未通过：压缩包内文件数（${count}）超过上限 ${limits.maxEntries}，已拒绝。`,
      );
    }
    if (cdOffset + cdSize > buf.length) throw bad('压缩包目录损坏');
    let p = cdOffset;
    let declared = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw bad('压缩包目录损坏');
      const flags = buf.readUInt16LE(p + 8);
      const method = buf.readUInt16LE(p + 10);
      const compressedSize = buf.readUInt32LE(p + 20);
      const size = buf.readUInt32LE(p + 24);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      const localOffset = buf.readUInt32LE(p + 42);
      const name = buf.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;
      if (flags & 1) throw bad('压缩包已加密');
      if (method !== 0 && method !== 8) throw bad(`不支持的压缩方式 ${method}`);
      declared += size;
      if (declared > limits.maxBytes) throw bomb();
      if (method === 8 && size > 1024 && size / Math.max(compressedSize, 1) > limits.maxRatio) throw bomb();
      if (!name.endsWith('/')) this.entries.set(name, { name, method, compressedSize, size, localOffset });
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Inflates one entry, counting real output against its declared size and the archive budget. */
  read(name: string): Buffer {
    const e = this.entries.get(name);
    if (!e) throw bad(`缺少 ${name}`);
    const b = this.buf;
    const lh = e.localOffset;
    if (lh + 30 > b.length || b.readUInt32LE(lh) !== 0x04034b50) throw bad('压缩包条目损坏');
    const start = lh + 30 + b.readUInt16LE(lh + 26) + b.readUInt16LE(lh + 28);
    const data = b.subarray(start, start + e.compressedSize);
    if (data.length < e.compressedSize) throw bad('压缩包被截断');
    if (e.method === 0) {
      this.charge(data.length);
      return Buffer.from(data);
    }
    const chunks: Uint8Array[] = [];
    let out = 0;
    let failure: Error | undefined;
    const inflate = new Inflate((chunk) => {
      out += chunk.length;
      // Real bytes beyond the declared size mean the header lied: stop before it grows further.
      if (out > e.size) failure ??= bomb();
      else chunks.push(chunk);
    });
    const SLICE = 16 * 1024;
    try {
      for (let i = 0; i < data.length && !failure; i += SLICE) {
        inflate.push(data.subarray(i, i + SLICE), i + SLICE >= data.length);
      }
    } catch (err) {
      if (err instanceof BookImportError) throw err;
      throw bad('压缩数据损坏');
    }
    if (failure) throw failure;
    if (out !== e.size) throw bad('压缩包条目大小与声明不符');
    this.charge(out);
    return Buffer.concat(chunks);
  }

  readText(name: string): string {
    return this.read(name).toString('utf8');
  }

  private charge(n: number): void {
    this.used += n;
    if (this.used > this.limits.maxBytes) throw bomb();
  }
}
