import { createWriteStream } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { publicApi } from '@vw/contract';
import { renderTranscript, type Transcript, toVerboseJson } from '@vw/engines';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { RequestValidationError } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import { withScratchDir } from '../../media/scratch.ts';
import { getMediaLimits } from '../features/features.service.ts';
import { DEMUXER_OF_EXT, SNIFF_BYTES, sniffFileType } from '../files/sniff.ts';
import { transcribeForApi } from '../stt/transcribe.service.ts';

const { openaiTranscription, openaiTranscriptionForm } = publicApi;
type Form = z.output<typeof openaiTranscriptionForm>;

/**
 * OpenAI's `POST /v1/audio/transcriptions` over whatever recognizer is configured. Registered inside the
 * public API's scope (key, limits, error style), in a scope of its own so that multipart parsing exists
 * for this route only. The file streams to a temporary file under the plan's size limit — never into memory.
 */
export async function registerTranscriptionRoutes(scope: FastifyInstance, ctx: AppContext): Promise<void> {
  await scope.register(async (route) => {
    // The size limit is the account's plan's, given per request (readUpload).
    await route.register(multipart, { limits: { files: 1, fields: 20, parts: 25 } });
    const handler = (request: FastifyRequest, reply: FastifyReply) => transcribe(ctx, request, reply);
    route.post(openaiTranscription.path, { schema: { hide: true } }, handler);
    // Clients configured with the bare origin + /v1 as base URL reach the same route.
    route.post('/v1/audio/transcriptions', { schema: { hide: true } }, handler);
  });
}

async function transcribe(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const key = request.apiKey!;
  if (!request.isMultipart()) {
    throw AppError.named('err_invalid_param', '请以 multipart/form-data 上传音频文件（字段 file）');
  }
  // The client going away stops the recognizer (and releases the credits held for it).
  const abort = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const { max_upload_bytes } = await getMediaLimits(ctx, key.userId);
  // Under DATA_DIR/scratch (a disk, not a tmpfs); the media sweep removes it if this process dies.
  const answer = await withScratchDir(ctx, `transcribe-${newId('asr')}`, async (dir) => {
    const upload = await readUpload(request, dir, max_upload_bytes);
    const transcript = await transcribeForApi(ctx, key.userId, {
      filePath: upload.path,
      demuxer: upload.demuxer,
      model: upload.form.model,
      language: upload.form.language,
      prompt: upload.form.prompt,
      apiKey: { id: key.id, creditLimit: key.creditLimit },
      signal: abort.signal,
    });
    return render(transcript, upload.form);
  });
  return reply.type(answer.contentType).send(answer.body);
}

/** Reads the parts in any order: the file to disk (named by its sniffed type), the fields validated. */
async function readUpload(request: FastifyRequest, dir: string, maxBytes: number) {
  const fields: Record<string, string[]> = {};
  let path: string | null = null;
  const parts = request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 16 * 1024 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      path = join(dir, 'upload');
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw AppError.named('err_file_too_large', undefined, 413);
    } else {
      fields[part.fieldname] = [...(fields[part.fieldname] ?? []), String(part.value)];
    }
  }
  if (!path) {
    throw RequestValidationError.fromZod('body', [
      { code: 'invalid_type', expected: 'string', path: ['file'], input: undefined, message: 'file' },
    ] as never);
  }
  const parsed = openaiTranscriptionForm.safeParse({
    model: fields.model?.[0],
    language: fields.language?.[0] || undefined,
    prompt: fields.prompt?.[0] || undefined,
    response_format: fields.response_format?.[0] || undefined,
    temperature: fields.temperature?.[0] || undefined,
    // OpenAI SDKs send the array as repeated `timestamp_granularities[]` fields.
    'timestamp_granularities[]': fields['timestamp_granularities[]'] ?? fields.timestamp_granularities,
  });
  if (!parsed.success) throw RequestValidationError.fromZod('body', parsed.error.issues);
  return { ...(await nameBySniffedType(path)), form: parsed.data };
}

/** Refuses what is not audio or video by its bytes; gives the file the extension its bytes say. */
async function nameBySniffedType(path: string): Promise<{ path: string; demuxer: string }> {
  const handle = await open(path, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length === 0) throw AppError.named('err_file_empty');
  const type = sniffFileType(head);
  const demuxer = type ? DEMUXER_OF_EXT[type.ext] : undefined;
  if (!type || !demuxer || !(type.mimes.audio || type.mimes.video))
    throw AppError.named('err_file_not_supported');
  const named = `${path}.${type.ext}`;
  await rename(path, named);
  return { path: named, demuxer };
}

/** The answer in the format asked for; verbose_json holds segments and words as the granularities say. */
function render(transcript: Transcript, form: Form): { contentType: string; body: string } {
  if (form.response_format !== 'verbose_json') return renderTranscript(transcript, form.response_format);
  // OpenAI: segments unless only words were asked for; words only when asked for.
  const granularities = form['timestamp_granularities[]'] ?? ['segment'];
  const { segments, words, ...rest } = toVerboseJson(transcript);
  const body = {
    ...rest,
    ...(granularities.includes('segment') ? { segments } : {}),
    ...(granularities.includes('word') ? { words } : {}),
  };
  return { contentType: 'application/json', body: JSON.stringify(body) };
}
