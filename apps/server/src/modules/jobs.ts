import type { JobDefinition } from '../jobs/index.ts';
import { mediaSweepJob } from '../media/gc.ts';
import type { Pipeline } from '../tasks/pipeline.ts';
import { taskSweepJob } from '../tasks/tasks.jobs.ts';
import { webhookDeliveryJob } from './apikeys/webhooks.service.ts';
import { audiobookPipeline } from './audiobook/audiobook.pipeline.ts';
import { creditSweepJob } from './credits/credits.jobs.ts';
import { creditExportPipeline } from './credits/export.service.ts';
import { holdLeaseSweepJob } from './credits/hold-leases.ts';
import { dubPipelines } from './dubbing/dubbing.pipeline.ts';
import { erasePipeline, watermarkPipeline } from './erase/erase.pipeline.ts';
import { ocrPipeline } from './ocr/ocr.pipeline.ts';
import { paymentReconcileJob } from './payments/payments.jobs.ts';
import { sttPipeline } from './stt/stt.pipeline.ts';
import { ttsPipeline } from './tts/tts.pipeline.ts';
import { translatePipeline } from './video-translation/video-translation.pipeline.ts';
import { voiceChangerPipeline } from './voice-changer/voice-changer.pipeline.ts';
import { professionalClonePipeline } from './voice-clone/professional.pipeline.ts';
import { voicePreviewJob } from './voices/voices.service.ts';

/**
 * The app's work in one list: createContext hands these to the task service (by tool) and to the job
 * queue (by name), so a worker runs every job any process of the app enqueues.
 */
export const appPipelines: readonly Pipeline<unknown>[] = [
  audiobookPipeline,
  creditExportPipeline,
  ...Object.values(dubPipelines),
  erasePipeline,
  watermarkPipeline,
  ocrPipeline,
  professionalClonePipeline,
  sttPipeline,
  translatePipeline,
  ttsPipeline,
  voiceChangerPipeline,
];

/** The stand-alone jobs (each pipeline stage is a job too: stageJobs). */
export const appJobs: readonly JobDefinition[] = [
  creditSweepJob,
  holdLeaseSweepJob,
  mediaSweepJob,
  paymentReconcileJob,
  taskSweepJob,
  voicePreviewJob,
  webhookDeliveryJob,
];
