import { readFile, writeFile } from 'node:fs/promises';
import { AppError } from '../errors.ts';

/*
 * 口型同步 (lip sync): an adapter slot for a self-hosted lip-sync server (a Wav2Lip / LatentSync /
 * MuseTalk wrapper) speaking vw-lipsync/1: POST {LIPSYNC_URL}/v1/lipsync, multipart `video` (MP4) and
 * `audio` (WAV) → 200 with the lip-synced MP4 as the body.
 */

export interface LipSync {
  label: string;
  /** Replaces `video` (rendered MP4) with the lip-synced one for `audio`. */
  apply(video: string, audio: string, signal?: AbortSignal): Promise<void>;
}

export function createLipSync(url: string, apiKey?: string): LipSync {
  return {
    label: '口型同步服务',
    async apply(video, audio, signal) {
      const form = new FormData();
      form.append('video', new Blob([await readFile(video)], { type: 'video/mp4' }), 'video.mp4');
      form.append('audio', new Blob([await readFile(audio)], { type: 'audio/wav' }), 'audio.wav');
      const res = await fetch(new URL('/v1/lipsync', url), {
        method: 'POST',
        body: form,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        ...(signal ? { signal } : {}),
      }).catch((err: unknown) => {
        throw AppError.named('err_interface_unavailable', `口型同步服务无法连接：${String(err)}`);
      });
      if (!res.ok) throw AppError.named('err_interface_unavailable', `口型同步服务返回 ${res.status}`);
      await writeFile(video, Buffer.from(await res.arrayBuffer()));
    },
  };
}
