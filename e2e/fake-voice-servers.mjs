#!/usr/bin/env node
/*
 * Fake self-hosted voice servers (issue 16) for tests and the browser journeys: node:http, real
 * multipart parsing (the WHATWG Request parser), real audio out.
 *
 *   /vc/*   the voice-conversion protocol "vw-vc/1" (packages/engines/src/vc/http.ts):
 *           GET /vc/health → {"status":"ok","model":"fake-rvc"}
 *           POST /vc/convert (multipart: audio, voice?, reference?, pitch_semitones, formant_shift,
 *           keep_timing) → audio/wav: the received audio pitch-shifted by pitch_semitones with
 *           ffmpeg's rubberband filter (a stand-in for RVC's transpose), header X-VC-Model.
 *           A voice named "broken" answers 500 with the protocol's error body.
 *   Voice-cloning fakes (helper `clone`) add their routes to ROUTES under their own prefix.
 *
 *   node e2e/fake-voice-servers.mjs [port]    (or FAKE_VOICE_PORT; default 18790, 0 = any free port)
 * Prints "fake-voice listening on http://127.0.0.1:<port>" once it listens.
 * GET /__requests lists what was asked (fields, and file sizes instead of files).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Parsed multipart form of a node request (fields as strings, files as Buffers). */
async function readForm(req) {
  const request = new Request(`http://fake${req.url}`, {
    method: req.method,
    headers: req.headers,
    body: req,
    duplex: 'half',
  });
  const form = await request.formData();
  const fields = {};
  const files = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else files[name] = Buffer.from(await value.arrayBuffer());
  }
  return { fields, files };
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function vcConvert(req, res, state) {
  if (state.apiKey && req.headers.authorization !== `Bearer ${state.apiKey}`) {
    return json(res, 401, { error: { message: 'bad api key' } });
  }
  const { fields, files } = await readForm(req);
  state.requests.push({
    path: '/vc/convert',
    fields,
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length])),
    authorization: req.headers.authorization ?? null,
  });
  if (!files.audio) return json(res, 400, { error: { message: 'audio is required' } });
  if (fields.voice === 'broken') return json(res, 500, { error: { message: 'model failed to load' } });
  const semitones = Number(fields.pitch_semitones ?? 0);
  const dir = await mkdtemp(join(tmpdir(), 'fake-vc-'));
  try {
    const input = join(dir, 'in');
    const output = join(dir, 'out.wav');
    await writeFile(input, files.audio);
    const pitch = (2 ** (semitones / 12)).toFixed(6);
    await run('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', input],
      ...[
        '-af',
        `rubberband=pitch=${pitch}:formant=preserved`,
        '-ar',
        '24000',
        '-c:a',
        'pcm_s16le',
        '-y',
        output,
      ],
    ]);
    const bytes = await readFile(output);
    res.writeHead(200, { 'content-type': 'audio/wav', 'x-vc-model': 'fake-rvc' });
    res.end(bytes);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Routes by "METHOD path"; other helpers add theirs. */
export const ROUTES = {
  'GET /vc/health': (_req, res) => json(res, 200, { status: 'ok', model: 'fake-rvc' }),
  'POST /vc/convert': vcConvert,
};

export function startFakeVoiceServers({ port = 0, apiKey } = {}) {
  const state = { requests: [], apiKey };
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (req.method === 'GET' && path === '/__requests') return json(res, 200, state.requests);
      const route = ROUTES[`${req.method} ${path}`];
      if (!route) return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      await route(req, res, state);
    } catch (err) {
      if (!res.headersSent) json(res, 500, { error: { message: String(err?.message ?? err) } });
      else res.destroy();
    }
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({
        url,
        requests: state.requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.argv[2] ?? process.env.FAKE_VOICE_PORT ?? 18790);
  const { url } = await startFakeVoiceServers({ port });
  console.log(`fake-voice listening on ${url}`);
}
