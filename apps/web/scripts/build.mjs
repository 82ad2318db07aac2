// `npm run build -w @vw/web`: builds the web app into a new folder (dist-<stamp>) and then points
// the `dist` link at it in one rename, so a running server never serves a half-written build and
// needs no restart. The previous build's hashed files are copied in too: a tab opened before the
// switch still loads the chunks its old index.html names.
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { precompress } from './precompress.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const link = path.join(web, 'dist');
/** Builds kept besides the new one (the one being replaced), for requests already under way. */
const KEEP_PREVIOUS = 1;

/** The files a build made itself (not the ones it carried over), from its Vite manifest. */
function ownFiles(dir) {
  const manifest = path.join(dir, '.vite', 'manifest.json');
  if (!existsSync(manifest)) return [];
  const chunks = Object.values(JSON.parse(readFileSync(manifest, 'utf8')));
  return [...new Set(chunks.flatMap((c) => [c.file, ...(c.css ?? []), ...(c.assets ?? [])]))];
}

const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
const out = path.join(web, `dist-${stamp}`);
await build({ root: web, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });

console.log(`precompressed ${precompress(out)} files`);

const current = existsSync(link) ? realpathSync(link) : null;
if (current) {
  for (const file of ownFiles(current)) {
    for (const variant of [file, `${file}.br`, `${file}.gz`]) {
      const from = path.join(current, variant);
      const to = path.join(out, variant);
      if (existsSync(from) && !existsSync(to)) cpSync(from, to);
    }
  }
}

// A build made before this script existed is a plain folder: moved aside once (not atomic).
if (existsSync(link) && !lstatSync(link).isSymbolicLink()) {
  renameSync(link, path.join(web, `dist-${stamp}-previous`));
}
const next = path.join(web, `dist.next-${stamp}`);
symlinkSync(path.basename(out), next);
renameSync(next, link);
console.log(
  `web app built into ${path.relative(process.cwd(), out)}; ${path.relative(process.cwd(), link)} points at it`,
);

// Older builds go; the newest KEEP_PREVIOUS stay.
const builds = readdirSync(web)
  .filter((name) => /^dist-\d/.test(name) && path.join(web, name) !== out)
  .sort()
  .reverse();
for (const name of builds.slice(KEEP_PREVIOUS))
  rmSync(path.join(web, name), { recursive: true, force: true });
