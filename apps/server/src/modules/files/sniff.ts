/** What an upload may be, as a feature sees it; a container can serve more than one kind. */
export type FileKind = 'image' | 'audio' | 'video' | 'subtitle' | 'text';

export interface SniffedType {
  ext: string;
  /** The MIME type for each kind this content can be used as. */
  mimes: Partial<Record<FileKind, string>>;
}

/** Enough bytes for every signature below and a fair look at a text file. */
export const SNIFF_BYTES = 64 * 1024;

const only = (ext: string, kind: FileKind, mime: string): SniffedType => ({ ext, mimes: { [kind]: mime } });

const ascii = (head: Buffer, at: number, text: string) =>
  head.length >= at + text.length && head.toString('latin1', at, at + text.length) === text;

/**
 * Identifies content by its bytes, never by its name or declared type. Containers that may hold
 * audio or video (mp4, webm, mkv) are reported as both; ffmpeg's probe decides later.
 */
export function sniffFileType(head: Buffer): SniffedType | null {
  if (head.length === 0) return null;
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return only('png', 'image', 'image/png');
  }
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return only('jpg', 'image', 'image/jpeg');
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return only('gif', 'image', 'image/gif');
  if (ascii(head, 0, 'RIFF')) {
    if (ascii(head, 8, 'WEBP')) return only('webp', 'image', 'image/webp');
    if (ascii(head, 8, 'WAVE')) return only('wav', 'audio', 'audio/wav');
    if (ascii(head, 8, 'AVI ')) return only('avi', 'video', 'video/x-msvideo');
    return null;
  }
  if (ascii(head, 0, 'fLaC')) return only('flac', 'audio', 'audio/flac');
  if (ascii(head, 0, 'OggS')) return only('ogg', 'audio', 'audio/ogg');
  if (ascii(head, 0, '#!AMR')) return only('amr', 'audio', 'audio/amr');
  if (ascii(head, 0, 'ID3') || isMpegAudioFrame(head)) return only('mp3', 'audio', 'audio/mpeg');
  if (head[0] === 0xff && (head[1] & 0xf6) === 0xf0) return only('aac', 'audio', 'audio/aac');
  if (ascii(head, 4, 'ftyp')) return isoMedia(head.toString('latin1', 8, 12));
  if (ascii(head, 0, 'FLV') && head[3] === 1)
    return { ext: 'flv', mimes: { audio: 'video/x-flv', video: 'video/x-flv' } };
  if (isMpegTs(head)) return { ext: 'ts', mimes: { audio: 'video/mp2t', video: 'video/mp2t' } };
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) {
    // The EBML header names its DocType within the first few dozen bytes.
    return head.subarray(0, 64).includes('webm')
      ? { ext: 'webm', mimes: { audio: 'audio/webm', video: 'video/webm' } }
      : { ext: 'mkv', mimes: { audio: 'audio/x-matroska', video: 'video/x-matroska' } };
  }
  return sniffText(head);
}

/** MPEG transport stream: a sync byte every 188 bytes (four packets seen). */
function isMpegTs(head: Buffer): boolean {
  if (head.length < 188 * 4) return false;
  for (let i = 0; i < 4; i++) if (head[i * 188] !== 0x47) return false;
  return true;
}

/**
 * The one demuxer ffmpeg may use for a sniffed media type: the probe is forced to it, so a file that
 * starts like an MP4 is never read as a playlist or an image sequence.
 */
export const DEMUXER_OF_EXT: Record<string, string> = {
  mp4: 'mov',
  m4a: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  webm: 'matroska',
  mkv: 'matroska',
  mp3: 'mp3',
  wav: 'wav',
  flac: 'flac',
  ogg: 'ogg',
  aac: 'aac',
  amr: 'amr',
  avi: 'avi',
  ts: 'mpegts',
  flv: 'flv',
};

/** An MPEG-1/2 audio frame header: 11 sync bits, a real layer, a usable bitrate and sample rate. */
function isMpegAudioFrame(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0xff || (head[1] & 0xe0) !== 0xe0) return false;
  const version = (head[1] >> 3) & 3;
  const layer = (head[1] >> 1) & 3;
  const bitrate = head[2] >> 4;
  const sampleRate = (head[2] >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 0 && bitrate !== 15 && sampleRate !== 3;
}

function isoMedia(brand: string): SniffedType {
  if (brand.startsWith('M4A') || brand.startsWith('M4B')) return only('m4a', 'audio', 'audio/mp4');
  if (brand === 'qt  ') return only('mov', 'video', 'video/quicktime');
  if (brand.startsWith('3gp') || brand.startsWith('3g2')) {
    return { ext: '3gp', mimes: { audio: 'audio/3gpp', video: 'video/3gpp' } };
  }
  return { ext: 'mp4', mimes: { audio: 'audio/mp4', video: 'video/mp4' } };
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * UTF-8 text without stray control characters; subtitles are recognised by their first cue.
 * The head may end inside a character, so it is decoded in streaming mode.
 */
function sniffText(head: Buffer): SniffedType | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
  // Tab, line feed, vertical tab, form feed and carriage return are the only controls text needs.
  if (head.some((b) => (b < 0x20 && (b < 0x09 || b > 0x0d)) || b === 0x7f)) return null;
  const start = text.replace(/^\uFEFF/, '').trimStart();
  const subtitle = (ext: string, mime: string): SniffedType => ({
    ext,
    mimes: { subtitle: mime, text: TEXT },
  });
  if (start.startsWith('WEBVTT')) return subtitle('vtt', 'text/vtt; charset=utf-8');
  if (start.startsWith('[Script Info]')) return subtitle('ass', 'text/x-ssa; charset=utf-8');
  if (/^\d+[ \t]*\r?\n[ \t]*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}[ \t]*-->/.test(start)) {
    return subtitle('srt', 'application/x-subrip; charset=utf-8');
  }
  return only('txt', 'text', TEXT);
}
