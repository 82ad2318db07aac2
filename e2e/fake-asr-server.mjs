#!/usr/bin/env node
/*
 * A fake OpenAI-compatible transcription server for the browser journeys (e2e/stt-editor.spec.ts):
 * node:http, real multipart. POST /v1/audio/transcriptions answers the sentences of
 * fake-asr-script.json with their times — the clip the journey generates speaks exactly those
 * sentences in those slots — as verbose_json (segments, and words at the top level as whisper
 * servers give them), json, text, srt or vtt. GET /v1/models lists the one model.
 *
 *   node e2e/fake-asr-server.mjs [port]      (or FAKE_ASR_PORT; 0 = any free port)
 * Prints "fake-asr listening on http://127.0.0.1:<port>/v1" once it listens.
 * GET /__requests tells how many transcriptions were asked (and with which fields).
 * POST /__hear {text} makes the next answers that one sentence (the voice-clone consent journey); DELETE clears.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const script = JSON.parse(readFileSync(new URL('./fake-asr-script.json', import.meta.url), 'utf8'));
const requests = [];
/** Set by POST /__hear {text} (DELETE clears): what the next transcriptions hear instead of the script. */
let heard = null;

/** Words of a sentence, spread evenly over its slot by length. */
function wordsOf(sentence) {
  const words = sentence.text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length, 0);
  const span = sentence.end_ms - sentence.start_ms;
  let at = sentence.start_ms;
  return words.map((w, i) => {
    const end = i === words.length - 1 ? sentence.end_ms : Math.round(at + (span * w.length) / total);
    const word = { word: w, start: at / 1000, end: end / 1000 };
    at = end;
    return word;
  });
}

function verboseJson() {
  if (heard) {
    const words = heard.split(/\s+/).map((w, i) => ({ word: w, start: i * 0.3, end: i * 0.3 + 0.3 }));
    return {
      task: 'transcribe',
      language: script.language,
      duration: 2,
      text: heard,
      segments: [{ id: 0, seek: 0, start: 0, end: 2, text: ` ${heard}`, tokens: [], temperature: 0 }],
      words,
    };
  }
  return {
    task: 'transcribe',
    language: script.language,
    duration: script.duration_ms / 1000,
    text: script.sentences.map((s) => s.text).join(' '),
    segments: script.sentences.map((s, id) => ({
      id,
      seek: 0,
      start: s.start_ms / 1000,
      end: s.end_ms / 1000,
      text: ` ${s.text}`,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    })),
    words: script.sentences.flatMap(wordsOf),
  };
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
const stamp = (ms, sep) =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
const srt = () =>
  script.sentences
    .map((s, i) => `${i + 1}\n${stamp(s.start_ms, ',')} --> ${stamp(s.end_ms, ',')}\n${s.text}\n`)
    .join('\n');
const vtt = () =>
  `WEBVTT\n\n${script.sentences.map((s) => `${stamp(s.start_ms, '.')} --> ${stamp(s.end_ms, '.')}\n${s.text}\n`).join('\n')}`;

/** The text fields of a multipart/form-data body (the file part is only checked to be there). */
function formFields(body, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (!boundary) return null;
  const sep = `--${boundary[1] ?? boundary[2]}`;
  const fields = {};
  let fileBytes = 0;
  for (const part of body.toString('latin1').split(sep).slice(1, -1)) {
    const headEnd = part.indexOf('\r\n\r\n');
    const head = part.slice(0, headEnd);
    const value = part.slice(headEnd + 4, -2);
    const name = /name="([^"]+)"/i.exec(head)?.[1];
    if (!name) continue;
    if (/filename="/i.test(head)) fileBytes = value.length;
    else {
      fields[name] ??= [];
      fields[name].push(value);
    }
  }
  return { fields, fileBytes };
}

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return send(res, 200, {
        object: 'list',
        data: [{ id: 'whisper-1', object: 'model', owned_by: 'fake' }],
      });
    }
    if (req.method === 'GET' && url.pathname === '/__requests') return send(res, 200, { requests });
    if (url.pathname === '/__hear') {
      heard =
        req.method === 'POST' ? String(JSON.parse(Buffer.concat(chunks).toString('utf8')).text ?? '') : null;
      return send(res, 200, { heard });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/audio/transcriptions') {
      return send(res, 404, {
        error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' },
      });
    }
    const form = formFields(Buffer.concat(chunks), req.headers['content-type']);
    if (!form || form.fileBytes === 0) {
      return send(res, 400, {
        error: { message: 'multipart body with a file is required', type: 'invalid_request_error' },
      });
    }
    const format = form.fields.response_format?.[0] ?? 'json';
    requests.push({ fields: form.fields, fileBytes: form.fileBytes, at: Date.now() });
    if (format === 'verbose_json') return send(res, 200, verboseJson());
    if (format === 'json') return send(res, 200, { text: verboseJson().text });
    if (format === 'text') return send(res, 200, `${verboseJson().text}\n`, 'text/plain; charset=utf-8');
    if (format === 'srt') return send(res, 200, srt(), 'text/plain; charset=utf-8');
    if (format === 'vtt') return send(res, 200, vtt(), 'text/vtt; charset=utf-8');
    return send(res, 400, {
      error: { message: `unknown response_format ${format}`, type: 'invalid_request_error' },
    });
  });
});

const port = Number(process.argv[2] ?? process.env.FAKE_ASR_PORT ?? 0);
server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address();
  console.log(`fake-asr listening on http://127.0.0.1:${bound}/v1`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
