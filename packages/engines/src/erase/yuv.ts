import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../errors.ts';
import { spawnMedia } from '../media/run.ts';

/**
 * Raw yuv420p frames as ffmpeg pipes them: Y (width × height), then U and V at half size (rounded
 * up). The fill works on one rectangle of the frame (the region around the erased boxes), kept as
 * its own three planes; the region's corners are even so that its chroma is whole chroma pixels.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Planes {
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

export const chromaSize = (n: number) => Math.ceil(n / 2);

export const frameBytes = (width: number, height: number) =>
  width * height + 2 * chromaSize(width) * chromaSize(height);

/** A region's planes, empty. */
export function newPlanes(r: Rect): Planes {
  const c = chromaSize(r.w) * chromaSize(r.h);
  return { y: new Uint8Array(r.w * r.h), u: new Uint8Array(c), v: new Uint8Array(c) };
}

/** The offsets of a full frame's three planes. */
function planeOffsets(width: number, height: number) {
  const u = width * height;
  return { u, v: u + chromaSize(width) * chromaSize(height), cw: chromaSize(width) };
}

function copyRect(
  from: Uint8Array,
  fromStride: number,
  to: Uint8Array,
  toStride: number,
  fx: number,
  fy: number,
  tx: number,
  ty: number,
  w: number,
  h: number,
) {
  for (let j = 0; j < h; j++) {
    const a = (fy + j) * fromStride + fx;
    to.set(from.subarray(a, a + w), (ty + j) * toStride + tx);
  }
}

/** Copies region `r` of a full frame into `out`. */
export function cropRegion(frame: Uint8Array, width: number, height: number, r: Rect, out: Planes): void {
  const o = planeOffsets(width, height);
  const cw = chromaSize(r.w);
  const ch = chromaSize(r.h);
  copyRect(frame, width, out.y, r.w, r.x, r.y, 0, 0, r.w, r.h);
  copyRect(frame.subarray(o.u), o.cw, out.u, cw, r.x / 2, r.y / 2, 0, 0, cw, ch);
  copyRect(frame.subarray(o.v), o.cw, out.v, cw, r.x / 2, r.y / 2, 0, 0, cw, ch);
}

/** Writes region planes back into a full frame. */
export function pasteRegion(frame: Uint8Array, width: number, height: number, r: Rect, from: Planes): void {
  const o = planeOffsets(width, height);
  const cw = chromaSize(r.w);
  const ch = chromaSize(r.h);
  copyRect(from.y, r.w, frame, width, 0, 0, r.x, r.y, r.w, r.h);
  copyRect(from.u, cw, frame.subarray(o.u), o.cw, 0, 0, r.x / 2, r.y / 2, cw, ch);
  copyRect(from.v, cw, frame.subarray(o.v), o.cw, 0, 0, r.x / 2, r.y / 2, cw, ch);
}

/**
 * Fixed-size frames from a byte stream (the last partial frame, if any, is dropped). `buffer` gives
 * the array each frame is read into (default: a new one): a caller that is done with a frame before
 * it asks for the next one can hand back the same array, sparing the garbage collector.
 */
export async function* readFrames(
  stream: Readable,
  size: number,
  buffer: () => Uint8Array | Promise<Uint8Array> = () => new Uint8Array(size),
): AsyncGenerator<Uint8Array> {
  let frame: Uint8Array | undefined;
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      frame ??= await buffer();
      const n = Math.min(size - filled, chunk.length - at);
      frame.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield frame;
        frame = undefined;
        filled = 0;
      }
    }
  }
}

/** Writes with back-pressure: waits for 'drain' when the pipe is full. */
export async function writeFrame(stream: Writable, frame: Uint8Array): Promise<void> {
  if (!stream.write(frame)) await once(stream, 'drain');
}

/**
 * ffmpeg encoding the yuv420p frames written to its stdin into `output` with `encode` (codec args).
 * Our own pipe of raw frames: no user input here, so no demuxer list.
 */
export function rawVideoEncoder(
  size: { width: number; height: number },
  fps: number,
  encode: string[],
  output: string,
  signal?: AbortSignal,
) {
  const encoder = spawnMedia(
    'ffmpeg',
    [
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-s',
      `${size.width}x${size.height}`,
      '-framerate',
      String(fps),
      '-i',
      'pipe:0',
      ...encode,
      '-an',
      '-y',
      output,
    ],
    { signal, stdin: 'pipe', restrictDemuxers: false, timeoutMs: 6 * 60 * 60_000 },
  );
  const stdin = encoder.child.stdin;
  if (!stdin) throw new EngineError('media_failed', '媒体处理失败', 'encoder without stdin');
  return { encoder, stdin };
}
