/**
 * Downloads sherpa-onnx models (speech synthesis, recognition, VAD, punctuation, diarization) into a
 * models folder and registers them in its models.json. The catalogue is src/sherpa/catalogue.ts. For machines with internet access; the tests never run it.
 *
 *   npm run models:fetch -w @vw/engines -- --list
 *   npm run models:fetch -w @vw/engines -- [--dir ./data/models] [--base-url URL] <model id>...
 *
 * The folder defaults to $SHERPA_ONNX_MODELS_DIR, else ./data/models (relative to where npm was run).
 * Needs `tar` with bzip2 support. Models that are already registered with all their files are skipped.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  CATALOGUE_GROUPS,
  checkModelFiles,
  loadModelRegistry,
  MODEL_CATALOGUE,
  parseModelRegistry,
  REGISTRY_FILE,
  type SherpaModel,
} from '../src/index.ts';

// The sherpa-onnx project publishes converted models as release assets.
const DEFAULT_BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

function parseArgs(argv: string[]) {
  const out = {
    dir: process.env.SHERPA_ONNX_MODELS_DIR ?? './data/models',
    baseUrl: DEFAULT_BASE_URL,
    list: false,
    ids: [] as string[],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--list') out.list = true;
    else if (a === '--dir') out.dir = argv[++i];
    else if (a === '--base-url') out.baseUrl = argv[++i].replace(/\/+$/, '');
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else out.ids.push(a);
  }
  // npm runs scripts inside the package folder; a relative --dir means relative to where npm was run.
  return { ...out, dir: resolve(process.env.INIT_CWD ?? process.cwd(), out.dir) };
}

async function download(url: string, file: string) {
  const response = await fetch(url, { redirect: 'follow' });
  if (!response.ok || !response.body) throw new Error(`download failed: ${response.status} ${url}`);
  // fetch's stream type is the DOM one; at run time it is Node's web stream.
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(file));
}

function untar(archive: string, dir: string) {
  return new Promise<void>((done, fail) => {
    const tar = spawn('tar', ['xjf', archive, '-C', dir], { stdio: 'inherit' });
    tar.on('error', fail);
    tar.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`tar exited with ${code} for ${archive}`)),
    );
  });
}

async function readRegistry(dir: string): Promise<SherpaModel[]> {
  const text = await readFile(join(dir, REGISTRY_FILE), 'utf8').catch(() => undefined);
  return text ? parseModelRegistry(JSON.parse(text)) : [];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.list || args.ids.length === 0) {
    console.log('Available models (npm run models:fetch -w @vw/engines -- <id>...):');
    for (const group of CATALOGUE_GROUPS) {
      console.log(`\n${group.title}`);
      for (const { model } of MODEL_CATALOGUE.filter((c) => group.kinds.includes(c.model.kind))) {
        const what = model.type ?? model.kind;
        const all = model.languages ?? [];
        const languages = all.length > 5 ? `${all.slice(0, 5).join(',')},…` : all.join(',');
        console.log(`  ${model.id.padEnd(34)} ${what.padEnd(12)} ${languages.padEnd(16)} ${model.name}`);
      }
    }
    console.log('\nRecognition needs an asr model and silero-vad; punctuation and diarization are optional.');
    return;
  }
  const unknown = args.ids.filter((id) => !MODEL_CATALOGUE.some((c) => c.model.id === id));
  if (unknown.length) throw new Error(`unknown model ${unknown.join(', ')}; see --list`);

  await mkdir(args.dir, { recursive: true });
  let registry = await readRegistry(args.dir);
  for (const id of args.ids) {
    const entry = MODEL_CATALOGUE.find((c) => c.model.id === id)!;
    const [model] = parseModelRegistry({ models: [entry.model] });
    const present =
      registry.some((m) => m.id === id) &&
      (await checkModelFiles(args.dir, model).then(
        () => true,
        () => false,
      ));
    if (present) {
      console.log(`✓ ${id} already present`);
      continue;
    }
    for (const { path, unpack } of entry.downloads) {
      const target = join(args.dir, basename(path));
      console.log(`↓ ${args.baseUrl}/${path}`);
      await download(`${args.baseUrl}/${path}`, target);
      if (unpack) {
        await untar(target, args.dir);
        await rm(target);
      }
    }
    await checkModelFiles(args.dir, model);
    registry = [...registry.filter((m) => m.id !== id), model];
    await writeFile(join(args.dir, REGISTRY_FILE), `${JSON.stringify({ models: registry }, null, 2)}\n`);
    console.log(`✓ ${id} registered`);
  }
  // The same validation the server runs at start-up.
  await loadModelRegistry(args.dir);
  console.log(`models folder ready: ${args.dir} (set SHERPA_ONNX_MODELS_DIR to it)`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
