import { readFile, writeFile } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { engineFetch, type RemoteErrors } from '../http/engine-fetch.ts';

/*
 * 口型同步 (lip sync): a self-hosted lip-sync server (a Wav2Lip / LatentSync / MuseTalk wrapper)
 * speaking vw-lipsync/1: POST {url}/v1/lipsync, multipart `video` (MP4) and `audio` (WAV) → 200 with
 * the lip-synced MP4 as the body.
 */

export interface LipSync {
  label: string;
  /** Replaces `video` (rendered MP4) with the lip-synced one for `audio`. */
  apply(video: string, audio: string, signal?: AbortSignal): Promise<void>;
}

/** A lip-sync run takes about as long as the video on a GPU; an hour covers the longest allowed. */
const LIPSYNC_TIMEOUT_MS = 60 * 60_000;

const LIPSYNC_ERRORS: RemoteErrors = {
  aborted: () => new EngineError('aborted', '已取消', 'cancelled'),
  timedOut: () => new EngineError('timeout', '口型同步服务没有及时回答，请稍后重试', 'lip sync timed out'),
  unreachable: (cause) =>
    new EngineError('engine_unavailable', `口型同步服务无法连接：${String(cause)}`, 'lip sync unreachable', {
      cause,
    }),
  failed: (status) =>
    new EngineError('engine_unavailable', `口型同步服务返回 ${status}`, `lip sync answered ${status}`),
};

export function createLipSync(url: string, apiKey?: string): LipSync {
  return {
    label: '口型同步服务',
    async apply(video, audio, signal) {
      const form = new FormData();
      form.append('video', new Blob([await readFile(video)], { type: 'video/mp4' }), 'video.mp4');
      form.append('audio', new Blob([await readFile(audio)], { type: 'audio/wav' }), 'audio.wav');
      const { body } = await engineFetch(new URL('/v1/lipsync', url).toString(), {
        method: 'POST',
        body: form,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        errors: LIPSYNC_ERRORS,
        timeoutMs: LIPSYNC_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
      await writeFile(video, body);
    },
  };
}
