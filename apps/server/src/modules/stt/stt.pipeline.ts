import { access, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { sttCalls, toSrt } from '@vw/contract';
import { extractAudio, probeAudio, type Transcript } from '@vw/engines';
import { z } from 'zod';
import { localPathOf } from '../../media/files.ts';
import { definePipeline, type StageContext } from '../../tasks/pipeline.ts';
import { readProjectDocument, writeToolResult } from '../projects/projects.service.ts';
import { engineLabel, recognitionError, recognizeSpeech } from '../projects/stages/recognize-speech.ts';
import { SOURCE_TRACK_ID, transcriptToDocument } from '../projects/stages/speech-document.ts';
import { writeSubtitleOutputs } from '../projects/stages/subtitle-outputs.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';

export const sttInput = sttCalls.sttOptions.extend({
  asset_id: z.string(),
  project_id: z.string(),
});
export type SttInput = z.infer<typeof sttInput>;

/** What recognizers hear: 16 kHz mono. */
const AUDIO_FILE = 'audio-16k.wav';

/**
 * The asset's audio as 16 kHz mono WAV in the task's scratch folder. Made again when it is not there
 * (another worker took the next stage, or the folder was swept): cheap next to recognition.
 */
async function speechAudio(ctx: StageContext<SttInput>): Promise<string> {
  const out = path.join(ctx.scratchDir, AUDIO_FILE);
  if (
    await access(out).then(
      () => true,
      () => false,
    )
  )
    return out;
  const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, ctx.input.asset_id);
  const source = await localPathOf(ctx.app, asset.storage_key, ctx.scratchDir);
  const partial = `${out}.part.wav`;
  try {
    // A long video's audio takes a while to decode; the limit only stops a stuck ffmpeg.
    const timeoutMs = Math.max(10 * 60_000, Number(asset.duration_ms ?? 0));
    await extractAudio(source, partial, {
      rate: 16_000,
      channels: 1,
      format: 'wav',
      signal: ctx.signal,
      timeoutMs,
    });
    await rename(partial, out);
  } catch (err) {
    throw recognitionError(err);
  } finally {
    await rm(partial, { force: true });
    // An S3 object was downloaded into the scratch folder; the local original is read in place.
    if (path.dirname(source) === ctx.scratchDir) await rm(source, { force: true });
  }
  return out;
}

export const sttPipeline = definePipeline<SttInput>({
  tool: 'stt',
  input: sttInput,
  stages: [
    {
      name: 'extract',
      label: '提取音频',
      lane: 'heavy',
      weight: 1,
      async run(ctx) {
        const { durationMs } = await probeAudio(await speechAudio(ctx));
        return { durationMs };
      },
    },
    {
      name: 'recognize',
      label: '识别语音',
      lane: 'heavy',
      weight: 8,
      async run(ctx): Promise<Transcript> {
        const { language, speakers } = ctx.input;
        return recognizeSpeech(ctx, await speechAudio(ctx), { language, speakers });
      },
    },
    {
      name: 'build',
      label: '生成字幕',
      lane: 'light',
      weight: 1,
      async run(ctx) {
        const transcript = ctx.results.recognize as Transcript;
        const { owner_id: ownerId } = ctx.task;
        const base = await readProjectDocument(ctx.app, ownerId, ctx.input.project_id);
        const document = transcriptToDocument(transcript, base, {
          splitCues: ctx.input.split_cues,
          language: ctx.input.language,
        });
        await writeToolResult(
          ctx.app,
          ownerId,
          ctx.input.project_id,
          document,
          engineLabel(transcript, ctx.app.engines.asr.list()),
        );
        const cues = document.tracks.find((t) => t.id === SOURCE_TRACK_ID)!.cues;
        await writeSubtitleOutputs(ctx, { srt: toSrt(cues) });
        const notice = document.tracks.find((t) => t.id === SOURCE_TRACK_ID)!.language_notice ?? null;
        return {
          cues: cues.length,
          speakers: document.speakers.length,
          language: transcript.language,
          notice,
        };
      },
    },
  ],
});
