import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type CatalogueEntry,
  checkModelFiles,
  type EngineError,
  type InstallReport,
  installModels,
  MODEL_CATALOGUE,
  type ModelProgress,
  parseModelRegistry,
  REGISTRY_FILE,
  readInstallState,
  removeModel,
  type SherpaModel,
  verifyModels,
} from '@vw/engines';
import type { Config } from './config.ts';
import { createEngines } from './engines/engines.ts';
import { installLines } from './engines/install.ts';

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

  // Nothing installed yet is "off" with where to look; anything else that fails is "broken".
  const problem = (error: EngineError): ['off' | 'broken', string] =>
    error.code === 'engine_not_configured'
      ? ['off', `${error.en} (npm run admin -- engines list)`]
      : ['broken', error.en];

  const engines = await createEngines(config);
  try {
    const { tts, clone, asr } = engines;
    for (const e of tts.list()) row('speech', e.id, 'ok');
    for (const p of tts.problems) row('speech', p.engine, ...problem(p.error));
    if (!tts.has('sherpa-onnx') && !tts.problems.some((p) => p.engine === 'sherpa-onnx')) {
      row(
        'speech',
        'sherpa-onnx',
        'off',
        `no speech model in ${config.modelsDir} (SHERPA_ONNX_MODELS_DIR, default DATA_DIR/models): npm run admin -- engines list`,
      );
    }
    if (!config.OPENAI_TTS_BASE_URL) row('speech', 'openai-compatible', 'off', 'set OPENAI_TTS_BASE_URL');
    // The standard fit is espeak's, reported under speech.
    for (const e of clone.engines) if (e.id !== 'standard') row('voice cloning', e.id, 'ok');
    for (const p of clone.problems) if (p.id !== 'standard') row('voice cloning', p.id, 'off', p.reason);
    service('voice cloning', 'trainer', engines.trainer, 'VOICE_CLONE_TRAINER_URL');
    const speaker = await engines.speakerModel();
    if (speaker.model) row('voice cloning', 'speaker check', 'ok', speaker.model.file);
    else row('voice cloning', 'speaker check', 'off', speaker.reason);

    for (const p of asr.list()) row('recognition', p.id, 'ok');
    for (const p of asr.problems) row('recognition', p.provider, ...problem(p.error));
    if (!config.OPENAI_ASR_BASE_URL)
      row('recognition', 'openai-compatible', 'off', 'set OPENAI_ASR_BASE_URL and OPENAI_ASR_MODEL');
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

    // Erasing always runs (OpenCV Telea); LaMa, opt-in, inpaints instead while installed.
    const lama = await engines.inpaintModel();
    if (lama) row('erasing', 'lama', 'ok', lama);
    else
      row(
        'erasing',
        'lama',
        'off',
        'OpenCV Telea inpaints instead; npm run admin -- engines install lama-big-512',
      );

    service('language model', 'chat', engines.llm, 'LLM_BASE_URL and LLM_MODEL');
    service('language model', 'embeddings', engines.embed, 'LLM_EMBEDDING_MODEL');
    service('dubbing', 'separator', engines.separate, 'SEPARATOR_URL (a vw-sep/1 server)');
    service('video', 'lip sync', engines.lipsync, 'LIPSYNC_URL (a vw-lipsync/1 server)');
  } finally {
    await engines.close();
  }
  return lines;
}

type Print = (line: string) => void;
type ModelsConfig = Pick<Config, 'modelsDir' | 'ENGINES_BASE_URL'>;

const sizeMb = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`;

/** What `engines list` says of a model: installed, downloading x %, failed, not installed. */
async function modelState(
  modelsDir: string,
  registered: Map<string, SherpaModel>,
  progress: ModelProgress | undefined,
  id: string,
  removed: boolean,
): Promise<string> {
  const model = registered.get(id);
  if (model) {
    const whole = await checkModelFiles(modelsDir, model).then(
      () => true,
      () => false,
    );
    if (!whole) return 'installed, files missing (engines install it again)';
    return progress?.verified === false
      ? 'installed (未核对 not verified: no published digest)'
      : 'installed';
  }
  switch (progress?.state) {
    case 'downloading': {
      const pct = progress.bytesTotal ? Math.floor((progress.bytesDone / progress.bytesTotal) * 100) : 0;
      return `downloading ${pct}%`;
    }
    case 'queued':
    case 'verifying':
    case 'unpacking':
      return progress.state;
    case 'failed':
      return `failed: ${progress.error ?? 'unknown error'}`;
    case 'offline':
      return `not installed (offline at the last try: ${progress.error ?? ''})`;
    default:
      return removed
        ? 'not installed (removed: a server start leaves it out until installed by name)'
        : 'not installed';
  }
}

/**
 * `engines list`: every catalogue model with its state, size, licence (code / weights), whether it
 * is in the recommended set, and what installing it turns on.
 */
export async function engineList(
  config: ModelsConfig,
  catalogue: readonly CatalogueEntry[] = MODEL_CATALOGUE,
): Promise<string[]> {
  const { modelsDir } = config;
  const registered = new Map(
    (await loadRegisteredModels(modelsDir)).map((m): [string, SherpaModel] => [m.id, m]),
  );
  const state = await readInstallState(modelsDir);
  const lines = [`models folder: ${modelsDir}`];
  for (const entry of catalogue) {
    const { id } = entry.model;
    const bytes = entry.downloads.reduce((s, d) => s + d.bytes, 0);
    // An upper bound where upstream's exact length could not be read.
    const size = `${entry.downloads.every((d) => d.bytesExact) ? '' : '≤'}${sizeMb(bytes)}`;
    const set = entry.recommended
      ? 'recommended'
      : entry.licence.permissive
        ? 'optional'
        : 'opt-in (licence not permissive)';
    lines.push(
      `${id.padEnd(34)} ${(await modelState(modelsDir, registered, state.models[id], id, Boolean(state.removed?.includes(id)))).padEnd(16)} ${size.padStart(8)}  ${set}`,
    );
    lines.push(`    licence: code ${entry.licence.code}; weights ${entry.licence.weights}`);
    lines.push(`    enables: ${entry.enables}`);
  }
  // Models registered by hand (not from the catalogue) are shown too.
  for (const [id] of registered) {
    if (!catalogue.some((c) => c.model.id === id))
      lines.push(`${id.padEnd(34)} installed (not in the catalogue)`);
  }
  return lines;
}

async function loadRegisteredModels(modelsDir: string): Promise<SherpaModel[]> {
  const text = await readFile(path.join(modelsDir, REGISTRY_FILE), 'utf8').catch(() => undefined);
  return text ? parseModelRegistry(JSON.parse(text)) : [];
}

export class EngineCommandError extends Error {}

/**
 * `engines install <id>… | --recommended`: progress lines while it runs; a model whose licence is
 * not permissive installs only when named, after its licence is printed. Resolves the report.
 */
export async function engineInstall(
  config: ModelsConfig,
  request: { ids: string[]; recommended?: boolean },
  print: Print,
  options: { catalogue?: readonly CatalogueEntry[]; signal?: AbortSignal; everyMs?: number } = {},
): Promise<InstallReport> {
  const catalogue = options.catalogue ?? MODEL_CATALOGUE;
  const unknown = request.ids.filter((id) => !catalogue.some((c) => c.model.id === id));
  if (unknown.length)
    throw new EngineCommandError(`unknown model ${unknown.join(', ')} (npm run admin -- engines list)`);
  const ids = [
    ...new Set([
      ...(request.recommended ? catalogue.filter((c) => c.recommended).map((c) => c.model.id) : []),
      ...request.ids,
    ]),
  ];
  if (!ids.length) throw new EngineCommandError('engines install needs model ids or --recommended');
  for (const id of request.ids) {
    const { licence } = catalogue.find((c) => c.model.id === id)!;
    if (licence.permissive) continue;
    print(`${id}: not in the recommended set — read its licence before you use it:`);
    print(`    code ${licence.code}; weights ${licence.weights}; training data ${licence.data}`);
    for (const source of licence.sources) print(`    ${source}`);
  }
  const lines = installLines({ info: print, warn: print }, { everyMs: options.everyMs ?? 2_000 });
  const report = await installModels({
    modelsDir: config.modelsDir,
    baseUrl: config.ENGINES_BASE_URL,
    catalogue,
    ids,
    signal: options.signal,
    onEvent: lines,
  });
  for (const id of report.already) print(`${id}: already installed`);
  if (report.status === 'done' && !report.failed.length) {
    print(`done: ${report.installed.length} installed, ${report.already.length} already there`);
  }
  return report;
}

/** `engines remove <id>`: unregisters the model and deletes its files (shared files stay). */
export async function engineRemove(config: ModelsConfig, id: string, print: Print): Promise<boolean> {
  const removed = await removeModel(config.modelsDir, id);
  print(removed ? `${id} removed` : `${id} is not installed`);
  return removed;
}

/** `engines verify`: files of every installed model, and sizes and sha256 where they can be checked. */
export async function engineVerify(
  config: ModelsConfig,
  print: Print,
  catalogue: readonly CatalogueEntry[] = MODEL_CATALOGUE,
): Promise<boolean> {
  const results = await verifyModels(config.modelsDir, catalogue);
  if (!results.length) print(`no models installed in ${config.modelsDir}`);
  for (const r of results) {
    print(r.ok ? `ok      ${r.id} (${r.checked.join(', ')})` : `FAILED  ${r.id}: ${r.problems.join('; ')}`);
  }
  return results.every((r) => r.ok);
}
