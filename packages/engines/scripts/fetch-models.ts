/**
 * The installer (src/sherpa/install) from the engines package alone, for a models folder used
 * without the server. With the server, `npm run admin -- engines list|install|remove|verify` does the
 * same with licences and states, and a server start installs the recommended set by itself.
 *
 *   npm run models:fetch -w @vw/engines -- --list
 *   npm run models:fetch -w @vw/engines -- [--dir ./data/models] [--base-url URL] <model id>...
 *
 * The folder defaults to $SHERPA_ONNX_MODELS_DIR, else ./data/models (relative to where npm was run).
 */
import { resolve } from 'node:path';
import { installModels, MODEL_CATALOGUE } from '../src/index.ts';

const DEFAULT_BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

function parseArgs(argv: string[]) {
  const out = {
    dir: process.env.SHERPA_ONNX_MODELS_DIR ?? './data/models',
    baseUrl: DEFAULT_BASE_URL,
    list: false,
    ids: [] as string[],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--list') out.list = true;
    else if (a === '--dir') out.dir = argv[++i]!;
    else if (a === '--base-url') out.baseUrl = argv[++i]!;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else out.ids.push(a);
  }
  // npm runs scripts inside the package folder; a relative --dir means relative to where npm was run.
  return { ...out, dir: resolve(process.env.INIT_CWD ?? process.cwd(), out.dir) };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.list || args.ids.length === 0) {
    for (const c of MODEL_CATALOGUE) {
      const mb = Math.round(c.downloads.reduce((s, d) => s + d.bytes, 0) / 1e6);
      const set = c.recommended ? 'recommended' : c.licence.permissive ? '' : 'licence not permissive';
      console.log(`${c.model.id.padEnd(34)} ${`${mb} MB`.padStart(8)}  ${set.padEnd(22)} ${c.enables}`);
    }
    return 0;
  }
  let last = 0;
  const report = await installModels({
    modelsDir: args.dir,
    baseUrl: args.baseUrl,
    catalogue: MODEL_CATALOGUE,
    ids: args.ids,
    onEvent: (e) => {
      if (e.type === 'progress') {
        if (Date.now() - last < 2000) return;
        last = Date.now();
        console.log(`  ${e.id} ${(e.bytesDone / 1e6).toFixed(1)}/${(e.bytesTotal / 1e6).toFixed(1)} MB`);
      } else if (e.type === 'installed') {
        console.log(`✓ ${e.id}${e.verified ? '' : ' (not verified: no published digest)'}`);
      } else if (e.type === 'failed') {
        console.log(`✗ ${e.id}: ${e.error}`);
      } else if (e.type === 'already') {
        console.log(`✓ ${e.id} already present`);
      }
    },
  });
  if (report.message) console.log(report.message);
  return report.status === 'done' && !report.failed.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
