import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { TtsFailureCode } from '@vw/contract';
import {
  bufferToSamples,
  createMp3Encoder,
  isEngineError,
  pcmToBuffer,
  type SentenceCheck,
  selfCheckFigures,
  wavHeader,
} from '@vw/engines';
import { z } from 'zod';
import { synthesisFailure } from '../../engine-errors.ts';
import { definePipeline, taskFailure } from '../../tasks/index.ts';
import { recordTaskFigures } from '../projects/stages/self-check.ts';
import { type PieceTimes, planSentences } from '../voices/voices.text.ts';
import { findHistoryById, updateHistory } from './tts.repo.ts';
import {
  audioKey,
  chargedCredits,
  finishSynthesis,
  longMp3,
  readingOf,
  type SynthesisPlan,
  sentenceWeights,
  synthesizeChecked,
} from './tts.service.ts';

const CONTENT_TYPES = { mp3: 'audio/mpeg', wav: 'audio/wav' } as const;

/** One finished sentence: its PCM (a stage artifact) and length. */
interface SentenceAudio {
  key: string;
  sample_rate: number;
  samples: number;
  /** When each piece was said (the engine's word timings), for the subtitles. */
  times?: PieceTimes;
  /** The speech self-check of the sentence, when a recognizer heard it. */
  check?: SentenceCheck;
}

const input = z.object({ history_id: z.string() });

async function historyOf(historyId: string, db: Parameters<typeof findHistoryById>[0]) {
  const row = await findHistoryById(db, historyId);
  if (!row) throw taskFailure(1, '合成记录已被删除');
  return row;
}

/** Engine errors as task failures: a refused language fails at once (4), anything else may run again (1). */
function asTaskFailure(err: unknown): unknown {
  if (!isEngineError(err)) return err;
  const f = synthesisFailure(err);
  return taskFailure(f.code as 1 | 4, f.message);
}

/**
 * Long text to speech (design §9: TTS on the task spine). Each sentence is an item of the first
 * stage, its PCM stored as an artifact, so a crash resumes after the last finished sentence; the
 * second stage encodes them in order into one file. The history row stays the tool's own view.
 */
export const ttsPipeline = definePipeline({
  tool: 'tts',
  input,
  stages: [
    {
      name: 'synthesize',
      label: '合成语音',
      lane: 'heavy',
      weight: 9,
      // Engine hiccups are retried (the last run fails the task and refunds), like the old job.
      attempts: 3,
      async run(ctx) {
        const db = ctx.app.db;
        const row = await historyOf(ctx.input.history_id, db);
        const plan = JSON.parse(row.options) as SynthesisPlan;
        const units = planSentences(row.text, plan.inlinePinyin, readingOf(plan));
        await updateHistory(db, row.id, {
          status: 'running',
          sentences_total: units.length,
          updated_at: ctx.app.clock.now(),
        });
        const sentences: SentenceAudio[] = [];
        for (const unit of units) {
          const audio = await ctx.item<SentenceAudio>(String(unit.index), async () => {
            let made: Awaited<ReturnType<typeof synthesizeChecked>>;
            try {
              made = await synthesizeChecked(ctx.app, plan, row, unit, ctx.signal);
            } catch (err) {
              throw asTaskFailure(err);
            }
            const pcm = made.audio;
            const key = await ctx.saveArtifact(
              { bytes: pcmToBuffer(pcm) },
              { name: `${unit.index}.pcm`, contentType: 'application/octet-stream' },
            );
            return {
              key,
              sample_rate: pcm.sampleRate,
              samples: pcm.samples.length,
              times: pcm.times,
              ...(made.check ? { check: made.check } : {}),
            };
          });
          sentences.push(audio);
          const done = sentences.length;
          await updateHistory(db, row.id, {
            sentences_done: done,
            progress: Math.floor((done / units.length) * 90),
          });
          await ctx.progress(done / units.length);
        }
        // The check's figures for the job (resumed sentences count with what they recorded).
        await recordTaskFigures(ctx.app, ctx.task.id, selfCheckFigures(sentences.map((s) => s.check)));
        return { sentences, weights: sentenceWeights(row.text, units) };
      },
    },
    {
      name: 'encode',
      label: '生成音频文件',
      lane: 'heavy',
      weight: 1,
      attempts: 3,
      async run(ctx) {
        const { app, signal } = ctx;
        const row = await historyOf(ctx.input.history_id, app.db);
        const plan = JSON.parse(row.options) as SynthesisPlan;
        const units = planSentences(row.text, plan.inlinePinyin, readingOf(plan));
        const { sentences } = ctx.results.synthesize as { sentences: SentenceAudio[] };
        const rate = sentences[0].sample_rate;
        const lengths = sentences.map((s) => s.samples);
        const key = audioKey(row, row.format);
        const stored = new PassThrough();
        const storing = app.storage.put(key, stored, CONTENT_TYPES[row.format]);
        storing.catch(() => {});
        try {
          if (row.format === 'mp3') {
            const encoder = createMp3Encoder({ sampleRate: rate, signal, long: longMp3(row) });
            encoder.output.pipe(stored);
            for (const s of sentences) {
              await encoder.write(bufferToSamples(await buffer(await app.storage.read(s.key))));
            }
            await encoder.end();
          } else {
            stored.write(wavHeader(lengths.reduce((a, b) => a + b, 0) * 2, rate));
            for (const s of sentences) stored.write(await buffer(await app.storage.read(s.key)));
            stored.end();
          }
          const { size } = await storing;
          const times = sentences.map((s) => s.times);
          const checks = sentences.map((s) => s.check);
          await finishSynthesis(app, row, units, lengths, rate, key, size, times, checks);
        } catch (err) {
          stored.destroy(err as Error);
          await storing.catch(() => {});
          throw err;
        }
        // The sentences' PCM was working material only.
        for (const s of sentences) await app.storage.remove(s.key).catch(() => {});
        return { audio_key: key };
      },
    },
  ],
  // Sentences the self-check still flagged keep their audio, marked in the history (failure code 5
  // for that sentence); their characters' share of the credits is refunded, the job succeeds.
  finalCredits(results, held) {
    const synth = results.synthesize as { sentences?: SentenceAudio[]; weights?: number[] } | undefined;
    if (!synth?.sentences || !synth.weights) return held;
    return chargedCredits(
      held,
      synth.weights,
      synth.sentences.map((s) => s.check),
    );
  },
  async onFinished({ app, task }) {
    if (task.status === 'succeeded') return;
    const { history_id } = input.parse(JSON.parse(task.input));
    await updateHistory(app.db, history_id, {
      status: 'failed',
      failure_code: task.error_code || TtsFailureCode.GenerationFailed,
      error: task.error,
      updated_at: app.clock.now(),
    });
  },
  async webhookData(app, task) {
    const { history_id } = input.parse(JSON.parse(task.input));
    const row = await findHistoryById(app.db, history_id);
    return { history_id, characters: row?.characters ?? 0 };
  },
});
