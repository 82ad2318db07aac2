import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';

const ff = (...args: string[]) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);

/**
 * Media with known truth, made at test time (design §12): a 4 s 320×240 H.264/AAC clip with a tone,
 * espeak speech as WAV and MP3, and every hostile file the upload path must refuse.
 */
export function makeMediaFixtures(dir = mkdtempSync(path.join(tmpdir(), 'vw-media-fx-'))) {
  const file = (name: string) => path.join(dir, name);
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100',
    '-t',
    '4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file('clip.mp4'),
  );
  execFileSync('espeak-ng', [
    '-v',
    'en',
    '-w',
    file('speech.wav'),
    'hello world, this is a test of the upload',
  ]);
  ff('-i', file('speech.wav'), '-c:a', 'libmp3lame', '-b:a', '64k', file('speech.mp3'));

  const clip = readFileSync(file('clip.mp4'));
  writeFileSync(file('empty.mp4'), Buffer.alloc(0));
  // The first half of an MP4 whose index (moov) is at the end.
  writeFileSync(file('truncated.mp4'), clip.subarray(0, Math.floor(clip.length / 2)));
  // An MP4 header followed by noise.
  writeFileSync(file('fake.mp4'), Buffer.concat([clip.subarray(0, 32), Buffer.alloc(50_000, 0x5a)]));
  writeFileSync(file('text.mp3'), '这不是音频 this is just text, renamed to .mp3\n'.repeat(50));
  writeFileSync(
    file('playlist.m3u8'),
    `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:9/secret.ts\n#EXTINF:10,\n${file('clip.mp4')}\n#EXT-X-ENDLIST\n`,
  );
  writeFileSync(
    file('list.ffconcat'),
    `ffconcat version 1.0\nfile '${file('clip.mp4')}'\nfile '/etc/passwd'\n`,
  );
  writeFileSync(file('zip.mp4'), zipOf('clip.mp4', clip.subarray(0, 4096)));
  writeFileSync(file('huge.avi'), hugeAvi(file('small.avi')));
  return { dir, file };
}

/** A real zip archive (one deflated entry), renamed to .mp4 by the caller. */
function zipOf(name: string, data: Buffer): Buffer {
  const body = deflateRawSync(data);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(body.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBuf.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBuf.length, 12);
  end.writeUInt32LE(30 + nameBuf.length + body.length, 16);
  return Buffer.concat([local, nameBuf, body, central, nameBuf, end]);
}

/** A real AVI of raw video whose headers are patched to claim 100000×100000 pixels. */
function hugeAvi(small: string): Buffer {
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48:rate=5',
    '-t',
    '1',
    '-c:v',
    'rawvideo',
    '-pix_fmt',
    'gray',
    small,
  );
  const b = Buffer.from(readFileSync(small));
  const avih = b.indexOf('avih') + 8 + 8 * 4;
  b.writeUInt32LE(100_000, avih);
  b.writeUInt32LE(100_000, avih + 4);
  const strf = b.indexOf('strf') + 8 + 4;
  b.writeInt32LE(100_000, strf);
  b.writeInt32LE(100_000, strf + 4);
  return b;
}
