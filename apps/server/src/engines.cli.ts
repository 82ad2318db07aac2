import type { Config } from './config.ts';
import { createEngines } from './engines/engines.ts';

/**
 * `npm run admin -- engines`: what this configuration runs and, for what does not run, what to set or
 * install. Users are only told 「暂未开放，请联系管理员」; this is where the operator finds the details.
 * Starts the engines as the server does (and closes them again).
 */
export async function engineReport(config: Config): Promise<string[]> {
  const lines: string[] = [];
  const row = (area: string, engine: string, state: 'ok' | 'off' | 'broken', detail = '') =>
    lines.push([area.padEnd(15), engine.padEnd(26), state.padEnd(7), detail].join(' ').trimEnd());
  const service = (area: string, engine: string, on: unknown, set: string) =>
    on ? row(area, engine, 'ok') : row(area, engine, 'off', `set ${set}`);

  const engines = await createEngines(config);
  try {
    const { tts, clone, asr } = engines;
    for (const e of tts.list()) row('speech', e.id, 'ok');
    for (const p of tts.problems) row('speech', p.engine, 'broken', p.error.en);
    if (!config.SHERPA_ONNX_MODELS_DIR) row('speech', 'sherpa-onnx', 'off', 'set SHERPA_ONNX_MODELS_DIR');
    if (!config.OPENAI_TTS_BASE_URL) row('speech', 'openai-compatible', 'off', 'set OPENAI_TTS_BASE_URL');
    // The standard fit is espeak's, reported under speech.
    for (const e of clone.engines) if (e.id !== 'standard') row('voice cloning', e.id, 'ok');
    for (const p of clone.problems) if (p.id !== 'standard') row('voice cloning', p.id, 'off', p.reason);
    service('voice cloning', 'trainer', engines.trainer, 'VOICE_CLONE_TRAINER_URL');
    const speaker = await engines.speakerModel();
    if (speaker.model) row('voice cloning', 'speaker check', 'ok', speaker.model.file);
    else row('voice cloning', 'speaker check', 'off', speaker.reason);

    for (const p of asr.list()) row('recognition', p.id, 'ok');
    for (const p of asr.problems) row('recognition', p.provider, 'broken', p.error.en);
    if (!asr.list().length && !asr.problems.length) {
      try {
        asr.get();
      } catch (err) {
        row('recognition', '-', 'off', (err as { en?: string }).en ?? String(err));
      }
    }

    const vc = await engines.vc();
    for (const p of vc.list()) row('voice changer', p.id, 'ok');
    if (!vc.list().some((p) => p.kind === 'remote'))
      row('voice changer', 'vc-server', 'off', 'set VC_SERVER_URL');
    if (!vc.list().length) {
      try {
        vc.get();
      } catch (err) {
        row('voice changer', '-', 'off', (err as { en?: string }).en ?? String(err));
      }
    }

    service('language model', 'chat', engines.llm, 'LLM_BASE_URL and LLM_MODEL');
    service('language model', 'embeddings', engines.embed, 'LLM_EMBEDDING_MODEL');
    service('dubbing', 'separator', engines.separate, 'SEPARATOR_URL (a vw-sep/1 server)');
    service('video', 'lip sync', engines.lipsync, 'LIPSYNC_URL (a vw-lipsync/1 server)');
  } finally {
    await engines.close();
  }
  return lines;
}
