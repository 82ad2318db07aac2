/**
 * Downloads sherpa-onnx TTS models into a models folder and registers them in its models.json.
 * For machines with internet access; the tests never run it.
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
  checkModelFiles,
  loadModelRegistry,
  parseModelRegistry,
  REGISTRY_FILE,
  type SherpaModel,
} from '../src/index.ts';

// The sherpa-onnx project publishes converted models as release assets.
const DEFAULT_BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

interface CatalogueEntry {
  model: Omit<SherpaModel, 'speakers' | 'ruleFsts' | 'ruleFars'> & {
    speakers: number;
    ruleFsts?: string[];
    ruleFars?: string[];
  };
  /** Archives (release path) unpacked into the models folder, and single files downloaded next to them. */
  archives: string[];
  files?: string[];
}

const CATALOGUE: CatalogueEntry[] = [
  {
    model: {
      id: 'vits-icefall-zh-aishell3',
      kind: 'vits',
      name: 'AISHELL-3 多说话人中文',
      languages: ['zh-CN'],
      speakers: 174,
      files: {
        model: 'vits-icefall-zh-aishell3/model.onnx',
        tokens: 'vits-icefall-zh-aishell3/tokens.txt',
        lexicon: 'vits-icefall-zh-aishell3/lexicon.txt',
      },
      ruleFsts: ['date', 'phone', 'number', 'new_heteronym'].map((f) => `vits-icefall-zh-aishell3/${f}.fst`),
      ruleFars: ['vits-icefall-zh-aishell3/rule.far'],
    },
    archives: ['tts-models/vits-icefall-zh-aishell3.tar.bz2'],
  },
  {
    model: {
      id: 'sherpa-onnx-vits-zh-ll',
      kind: 'vits',
      name: '中文 5 说话人',
      languages: ['zh-CN'],
      speakers: 5,
      files: {
        model: 'sherpa-onnx-vits-zh-ll/model.onnx',
        tokens: 'sherpa-onnx-vits-zh-ll/tokens.txt',
        lexicon: 'sherpa-onnx-vits-zh-ll/lexicon.txt',
        dictDir: 'sherpa-onnx-vits-zh-ll/dict',
      },
      ruleFsts: ['date', 'phone', 'number'].map((f) => `sherpa-onnx-vits-zh-ll/${f}.fst`),
    },
    archives: ['tts-models/sherpa-onnx-vits-zh-ll.tar.bz2'],
  },
  {
    model: {
      id: 'matcha-icefall-zh-baker',
      kind: 'matcha',
      name: '标贝中文女声（Matcha）',
      languages: ['zh-CN'],
      speakers: 1,
      files: {
        acousticModel: 'matcha-icefall-zh-baker/model-steps-3.onnx',
        vocoder: 'vocos-22khz-univ.onnx',
        tokens: 'matcha-icefall-zh-baker/tokens.txt',
        lexicon: 'matcha-icefall-zh-baker/lexicon.txt',
      },
      ruleFsts: ['phone', 'date', 'number'].map((f) => `matcha-icefall-zh-baker/${f}.fst`),
    },
    archives: ['tts-models/matcha-icefall-zh-baker.tar.bz2'],
    files: ['vocoder-models/vocos-22khz-univ.onnx'],
  },
  {
    model: {
      id: 'kokoro-multi-lang-v1_0',
      kind: 'kokoro',
      name: 'Kokoro 中英双语',
      languages: ['zh-CN', 'en-US'],
      speakers: 53,
      files: {
        model: 'kokoro-multi-lang-v1_0/model.onnx',
        voices: 'kokoro-multi-lang-v1_0/voices.bin',
        tokens: 'kokoro-multi-lang-v1_0/tokens.txt',
        dataDir: 'kokoro-multi-lang-v1_0/espeak-ng-data',
        lexicon: ['kokoro-multi-lang-v1_0/lexicon-us-en.txt', 'kokoro-multi-lang-v1_0/lexicon-zh.txt'],
      },
    },
    archives: ['tts-models/kokoro-multi-lang-v1_0.tar.bz2'],
  },
  {
    model: {
      id: 'vits-piper-en_US-amy-low',
      kind: 'vits',
      name: 'Piper Amy (English)',
      languages: ['en-US'],
      speakers: 1,
      files: {
        model: 'vits-piper-en_US-amy-low/en_US-amy-low.onnx',
        tokens: 'vits-piper-en_US-amy-low/tokens.txt',
        dataDir: 'vits-piper-en_US-amy-low/espeak-ng-data',
      },
    },
    archives: ['tts-models/vits-piper-en_US-amy-low.tar.bz2'],
  },
];

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
    for (const { model } of CATALOGUE)
      console.log(
        `  ${model.id.padEnd(28)} ${model.kind.padEnd(7)} ${model.languages.join(',').padEnd(12)} ${model.name}`,
      );
    return;
  }
  const unknown = args.ids.filter((id) => !CATALOGUE.some((c) => c.model.id === id));
  if (unknown.length) throw new Error(`unknown model ${unknown.join(', ')}; see --list`);

  await mkdir(args.dir, { recursive: true });
  let registry = await readRegistry(args.dir);
  for (const id of args.ids) {
    const entry = CATALOGUE.find((c) => c.model.id === id)!;
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
    for (const path of entry.archives) {
      const archive = join(args.dir, basename(path));
      console.log(`↓ ${args.baseUrl}/${path}`);
      await download(`${args.baseUrl}/${path}`, archive);
      await untar(archive, args.dir);
      await rm(archive);
    }
    for (const path of entry.files ?? []) {
      console.log(`↓ ${args.baseUrl}/${path}`);
      await download(`${args.baseUrl}/${path}`, join(args.dir, basename(path)));
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
