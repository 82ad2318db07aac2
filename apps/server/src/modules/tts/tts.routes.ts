import { ttsCalls } from '@vw/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  deleteDictionaryEntry,
  findDictionary,
  findReadings,
  spokenReadings,
  upsertDictionaryEntry,
} from '../voices/dictionary.service.ts';
import {
  favorVoice,
  findModels,
  findVoices,
  getDefaultVoiceMap,
  getLanguageIcons,
} from '../voices/voices.service.ts';
import {
  deleteHistory,
  editHistory,
  findHistory,
  getDownloadUrl,
  getTaskStatus,
  regenerateSentence,
} from './history.service.ts';
import { type GenerateOutcome, generateSpeech } from './tts.service.ts';

/**
 * Sends synthesised audio (a stream or stored bytes) and returns once it is out, so Fastify sees the
 * reply as sent and adds nothing. The service never touches the reply; the routes do.
 */
export async function sendAudio(
  reply: FastifyReply,
  audio: Extract<GenerateOutcome, { kind: 'audio' }>,
): Promise<void> {
  void reply.headers(audio.headers).send(audio.body);
  if (!reply.raw.writableEnded) {
    await new Promise((resolve) => {
      reply.raw.once('finish', resolve);
      reply.raw.once('close', resolve);
    });
  }
}

/** Text to speech, the voice library, history and the pronunciation dictionary. */
export async function registerTtsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Warm the embedded engine (its processes and dictionaries) before the first request.
  if (ctx.engines.tts.has('espeak')) {
    ctx.engines.tts
      .synthesize({ segments: [{ text: '你好' }], voice: { engine: 'espeak' } })
      .catch((err) => ctx.log.warn({ err }, 'espeak warm-up failed'));
  }

  registerCall(app, ttsCalls.getAllVoices, ({ user, query }) => findVoices(ctx, user.uid, query));
  registerCall(app, ttsCalls.getDefaultVoice, () => getDefaultVoiceMap(ctx));
  registerCall(app, ttsCalls.getSupportedModel, ({ user }) => findModels(ctx, user.uid));
  registerCall(app, ttsCalls.getLanguageIcon, async () => getLanguageIcons());
  registerCall(app, ttsCalls.favorVoice, ({ user, body }) => favorVoice(ctx, user.uid, body));

  registerCall(
    app,
    ttsCalls.ttsGenerate,
    async ({ user, body, reply }) => {
      const outcome = await generateSpeech(ctx, user.uid, body);
      if (outcome.kind === 'task') return outcome.data;
      // Audio (streamed or from the cache): the envelope is never sent.
      await sendAudio(reply, outcome);
      return undefined as never;
    },
    { bodyLimit: 8 * 1024 * 1024 },
  );
  registerCall(app, ttsCalls.ttsTaskStatus, ({ user, query }) => getTaskStatus(ctx, user.uid, query.task_id));
  registerCall(app, ttsCalls.ttsRegenerateSentence, ({ user, body }) =>
    regenerateSentence(ctx, user.uid, body),
  );

  registerCall(app, ttsCalls.getHistory, ({ user, query }) => findHistory(ctx, user.uid, query));
  registerCall(app, ttsCalls.editHistory, ({ user, body }) => editHistory(ctx, user.uid, body), {
    bodyLimit: 8 * 1024 * 1024,
  });
  registerCall(app, ttsCalls.deleteHistory, ({ user, body }) =>
    deleteHistory(ctx, user.uid, [body.history_id]),
  );
  registerCall(app, ttsCalls.batchDeleteHistory, ({ user, body }) =>
    deleteHistory(ctx, user.uid, body.history_ids),
  );
  registerCall(app, ttsCalls.fileDownloadUrlByName, ({ user, body }) => getDownloadUrl(ctx, user.uid, body));

  registerCall(app, ttsCalls.listDictionary, async ({ user }) => ({
    items: await findDictionary(ctx, user.uid),
  }));
  registerCall(app, ttsCalls.upsertDictionary, async ({ user, body }) => ({
    item: await upsertDictionaryEntry(ctx, user.uid, body),
  }));
  registerCall(app, ttsCalls.deleteDictionary, async ({ user, body }) => ({
    deleted: await deleteDictionaryEntry(ctx, user.uid, body.word),
  }));
  registerCall(app, ttsCalls.getReadings, async ({ user, body }) => ({
    readings: await findReadings(ctx, user.uid, body.text),
    spoken: await spokenReadings(ctx, user.uid, body.text),
  }));
}
