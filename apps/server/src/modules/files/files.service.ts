import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { StoredFile } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { deleteFileOfOwner, findFileKeysOfOwner, findFileOfOwner, insertFile } from './files.repo.ts';
import { type FileKind, SNIFF_BYTES, type SniffedType, sniffFileType } from './sniff.ts';

export type { FileKind } from './sniff.ts';

/** What the files module needs of the application context. */
export type FilesContext = Pick<AppContext, 'db' | 'clock' | 'log' | 'storage'>;

export interface StoreFileInput {
  bytes: Buffer | Readable;
  /** Kept for display and downloads only; the type comes from the bytes. */
  originalName: string;
  /** The client's Content-Type: only breaks a tie when a container can be audio or video. */
  declaredType?: string;
  allowed: readonly FileKind[];
  maxBytes: number;
  /** The feature's folder, e.g. `avatars` or `voice-samples`. */
  prefix: string;
}

/**
 * Stores an upload under `${prefix}/${ownerId}/${id}.${ext}` and records it. The bytes are sniffed,
 * counted, hashed (and for text checked to be UTF-8 throughout) on their way to storage; on any
 * failure neither an object nor a row is left behind.
 */
export async function storeFile(
  ctx: FilesContext,
  ownerId: string,
  input: StoreFileInput,
): Promise<StoredFile> {
  const chunks = chunksOf(input.bytes);
  try {
    const head = await readHead(chunks);
    if (head.length === 0) throw AppError.named('err_file_empty');
    const type = sniffFileType(head.subarray(0, SNIFF_BYTES));
    const kind = type && chooseKind(type, input.allowed, input.declaredType);
    if (!type || !kind) throw AppError.named('err_file_not_supported');

    const id = newId('file');
    const key = `${input.prefix}/${ownerId}/${id}.${type.ext}`;
    const body = checkedBody(head, chunks, input.maxBytes, kind === 'text' || kind === 'subtitle');
    try {
      await ctx.storage.put(key, Readable.from(body.chunks()), type.mimes[kind]!);
      const file: StoredFile = {
        key,
        owner_id: ownerId,
        content_type: type.mimes[kind]!,
        size: body.size(),
        sha256: body.sha256(),
        original_name: cleanName(input.originalName, `${id}.${type.ext}`),
        created_at: ctx.clock.now(),
      };
      await insertFile(ctx.db, file);
      return file;
    } catch (error) {
      // The put may have landed even if it reported failure, and a failed insert must not orphan it.
      await ctx.storage
        .remove(key)
        .catch((err) => ctx.log.warn({ err, key }, 'could not remove a failed upload'));
      throw body.failure() ?? error;
    }
  } finally {
    // Stops reading the client's stream when we gave up early.
    await chunks.return(undefined);
  }
}

export async function getOwnedFile(ctx: FilesContext, ownerId: string, key: string): Promise<StoredFile> {
  const file = await findFileOfOwner(ctx.db, ownerId, key);
  if (!file) throw AppError.named('err_not_found');
  return file;
}

/**
 * The user a stored object belongs to: every user's object lives under `<area>/<user id>/…`
 * (uploads, tasks, tts, projects, exports, avatars, …); shared objects (voice previews, voice
 * references) have no user id there.
 */
export function fileOwnerOf(key: string): string | null {
  return /^[^/]+\/(u_[0-9a-f]{32})\//.exec(key)?.[1] ?? null;
}

export async function signedFileUrl(
  ctx: FilesContext,
  ownerId: string,
  key: string,
  options: { expiresInSeconds: number; downloadName?: string },
): Promise<string> {
  const file = await getOwnedFile(ctx, ownerId, key);
  return ctx.storage.signedUrl(file.key, options);
}

/** Object first, then row: if the row delete fails the user still sees the file and can retry. */
export async function deleteOwnedFile(ctx: FilesContext, ownerId: string, key: string): Promise<void> {
  const file = await getOwnedFile(ctx, ownerId, key);
  await ctx.storage.remove(file.key);
  await deleteFileOfOwner(ctx.db, ownerId, file.key);
}

/** Account cancellation: every file of the owner, objects and rows. Returns how many went. */
export async function deleteFilesOf(ctx: FilesContext, ownerId: string): Promise<number> {
  const keys = await findFileKeysOfOwner(ctx.db, ownerId);
  for (const key of keys) {
    await ctx.storage.remove(key);
    await deleteFileOfOwner(ctx.db, ownerId, key);
  }
  return keys.length;
}

async function* chunksOf(bytes: Buffer | Readable): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(bytes)) {
    yield bytes;
    return;
  }
  for await (const chunk of bytes) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
}

async function readHead(chunks: AsyncGenerator<Buffer>): Promise<Buffer> {
  const head: Buffer[] = [];
  let length = 0;
  while (length < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    length += next.value.length;
  }
  return Buffer.concat(head);
}

/** The usable kind the client declared, else the first allowed kind this content can be. */
function chooseKind(
  type: SniffedType,
  allowed: readonly FileKind[],
  declaredType?: string,
): FileKind | undefined {
  const usable = allowed.filter((kind) => type.mimes[kind]);
  const declared = declaredType?.split('/')[0];
  return usable.find((kind) => kind === declared) ?? usable[0];
}

/** The whole upload as it streams to storage: counted against the limit, hashed, UTF-8 checked for text. */
function checkedBody(head: Buffer, rest: AsyncGenerator<Buffer>, maxBytes: number, text: boolean) {
  const hash = createHash('sha256');
  const decoder = text ? new TextDecoder('utf-8', { fatal: true }) : null;
  let size = 0;
  let failure: AppError | undefined;
  const fail = (error: AppError) => {
    failure = error;
    return error;
  };
  const check = (chunk: Buffer, last: boolean) => {
    size += chunk.length;
    if (size > maxBytes) throw fail(AppError.named('err_file_too_large'));
    hash.update(chunk);
    try {
      decoder?.decode(chunk, { stream: !last });
    } catch {
      throw fail(AppError.named('err_file_not_supported'));
    }
    return chunk;
  };
  return {
    async *chunks() {
      yield check(head, false);
      for (let next = await rest.next(); !next.done; next = await rest.next()) yield check(next.value, false);
      check(Buffer.alloc(0), true);
    },
    size: () => size,
    sha256: () => hash.digest('hex'),
    failure: () => failure,
  };
}

/** The last path segment without control characters, at most 200 characters. */
function cleanName(name: string, fallback: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\x00-\x1f\x7f]/g, '').trim();
  return Array.from(base).slice(0, 200).join('') || fallback;
}
