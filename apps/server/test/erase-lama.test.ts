import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CatalogueEntry, MODEL_CATALOGUE, REGISTRY_FILE, removeModel, runFfmpeg } from '@vw/engines';
import { type ArchiveServer, startArchiveServer } from '@vw/engines/fake-archive-server';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_LAMA_YUV, tinyLamaModel } from '../../../packages/engines/src/erase/tiny-lama.fixture.ts';
import { makeCleanClip } from '../../../packages/engines/src/erase/truth.ts';
import { startBackgroundInstall } from '../src/engines/install.ts';
import { localPathOf } from '../src/media/files.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

/*
 * The neural inpainter without its weights (issue 28 item 1): a tiny ONNX graph with the LaMa
 * export's inputs and output, which paints the holes one known colour, is installed through the
 * server's own installer from a local archive server standing in for Hugging Face, under the
 * catalogue's LaMa entry. A 去水印 with 逐帧补全 over a still shot (no frame shows what the box
 * hides) then comes back with the box in the model's colour, the rest of the picture as it was, and
 * a report that names LaMa; with the model removed, the same erase is Telea's and says so.
 */

const W = 320;
const H = 180;
const REVISION = 'a3ee2fca54baebec351b8fa7786154ffa7555aa6';
const MODEL_PATH = `Carve/LaMa-ONNX/resolve/${REVISION}/lama_fp32.onnx`;
/** A drawn watermark box over the still shot. */
const BOX = { x: 0.3, y: 0.6, w: 0.4, h: 0.2 };

let work: string;
let archives: ArchiveServer;
let server: TestServer;
let alice: string;
let aliceId: string;
let clipFile: string;
let assetId: string;

const LAMA = MODEL_CATALOGUE.find((c) => c.model.kind === 'inpaint');

/** The catalogue's LaMa entry as is, its one download served locally (the tiny model's size and digest). */
function catalogue(body: Buffer): CatalogueEntry[] {
  if (!LAMA) throw new Error('no inpaint model in the catalogue');
  return [
    {
      ...LAMA,
      downloads: [
        {
          ...LAMA.downloads[0],
          path: `${archives.url}/${MODEL_PATH}`,
          bytes: body.length,
          sha256: createHash('sha256').update(body).digest('hex'),
        },
      ],
      installedBytes: body.length,
    },
  ];
}

/** The middle frame's planes (yuv420p as decoded, no range conversion). */
async function middleFrame(video: string) {
  const raw = await runFfmpeg(['-i', video, '-an', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1']);
  const c = (W / 2) * (H / 2);
  const size = W * H + 2 * c;
  const at = Math.floor(raw.length / size / 2) * size;
  return { y: raw.subarray(at, at + W * H), u: raw.subarray(at + W * H, at + W * H + c) };
}

/** Runs 去水印 with 逐帧补全 over BOX; resolves its report and the result's middle frame. */
async function eraseBox() {
  const created = await call(server.app, 'POST', '/v1/watermark/create', {
    token: alice,
    body: { asset_id: assetId, boxes: [BOX], method: 'fill' },
  });
  expect(created.body.code).toBe(0);
  const task = await taskFinished(server.ctx, created.body.data.task_id, 120_000);
  expect(task).toMatchObject({ status: 'succeeded', tool: 'watermark' });
  const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
  const { report, output_asset_id } = result.body.data;
  const asset = await server.ctx.db
    .selectFrom('media_assets')
    .select('storage_key')
    .where('id', '=', output_asset_id)
    .executeTakeFirstOrThrow();
  const out = await localPathOf(server.ctx, asset.storage_key, work);
  return { report, frame: await middleFrame(out) };
}

const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'vw-erase-lama-'));
  clipFile = join(work, 'still.mp4');
  await makeCleanClip(clipFile, 'static', { width: W, height: H, seconds: 1.5 });
  archives = await startArchiveServer({ [MODEL_PATH]: tinyLamaModel() });
  server = await createTestServer({ ENGINES: 'recommended', ENGINES_BASE_URL: archives.url });
  const a = await signIn(server.app, '13900000095');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 10_000);
  await setFeatureOverride(server.ctx, aliceId, 'remove_watermark', true);
  const copy = join(work, 'upload.mp4');
  await copyFile(clipFile, copy);
  assetId = (await registerAsset(server.ctx, aliceId, { file: copy, name: '静止画面.mp4' })).id;
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await archives?.close();
  await rm(work, { recursive: true, force: true });
});

describe('LaMa as the erase’s inpainter, installed from the catalogue (a tiny model in its place)', () => {
  it('installs through the server’s installer: verified by its digest, registered as the inpaint model', async () => {
    const lines: string[] = [];
    const log = {
      info: (m: string) => lines.push(m),
      warn: (o: unknown, m?: string) => lines.push(m ?? String(o)),
    } as unknown as FastifyBaseLogger;
    const run = startBackgroundInstall(server.config, log, catalogue(tinyLamaModel()), [LAMA!.model.id]);
    const report = await run?.done;
    expect(report).toMatchObject({ status: 'done', installed: [LAMA!.model.id], failed: [] });
    expect(lines).toContain(`engines: ${LAMA!.model.id} installed (sha256 verified)`);
    // Fetched from the whole URL the entry names (not under the release base URL).
    expect(archives.requests.some((r) => r.method === 'GET' && r.path === MODEL_PATH)).toBe(true);
    const registry = JSON.parse(await readFile(join(server.config.modelsDir, REGISTRY_FILE), 'utf8'));
    expect(registry.models).toContainEqual(LAMA!.model);
    expect(await server.ctx.engines.inpaintModel()).toBe(join(server.config.modelsDir, 'lama_fp32.onnx'));
  });

  it('fills what no frame shows with the model: the box in its colour, the rest untouched, the report says LaMa', async () => {
    const { report, frame } = await eraseBox();
    expect(report).toMatchObject({ method: 'fill', temporal_share: 0, inpaint: 'lama' });
    // The box as erased (found or drawn), inset from its edge where x264 blends with the outside.
    const [erased] = report.watermarks as Array<{ box: typeof BOX }>;
    const x0 = Math.round(erased.box.x * W) + 4;
    const y0 = Math.round(erased.box.y * H) + 4;
    const x1 = Math.round((erased.box.x + erased.box.w) * W) - 4;
    const y1 = Math.round((erased.box.y + erased.box.h) * H) - 4;
    const source = await middleFrame(clipFile);
    const inside: number[] = [];
    const chroma: number[] = [];
    const outside: number[] = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        if (x >= x0 && x < x1 && y >= y0 && y < y1) {
          inside.push(Math.abs(frame.y[i] - TINY_LAMA_YUV.y));
          chroma.push(Math.abs(frame.u[(y >> 1) * (W / 2) + (x >> 1)] - TINY_LAMA_YUV.u));
        } else if (x < x0 - 12 || x >= x1 + 12 || y < y0 - 12 || y >= y1 + 12) {
          outside.push(Math.abs(frame.y[i] - source.y[i]));
        }
      }
    }
    expect(inside.length).toBeGreaterThan(2000);
    expect(mean(inside)).toBeLessThan(2);
    expect(mean(chroma)).toBeLessThan(2);
    expect(mean(outside)).toBeLessThan(2);
  }, 180_000);

  it('with the model removed, the same erase is Telea’s and says so', async () => {
    expect(await removeModel(server.config.modelsDir, LAMA!.model.id)).toBe(true);
    expect(await server.ctx.engines.inpaintModel()).toBeNull();
    const { report, frame } = await eraseBox();
    expect(report).toMatchObject({ method: 'fill', temporal_share: 0, inpaint: 'telea' });
    // Telea carries the texture around the box into it: nothing like the model's flat colour.
    const cx = Math.round((BOX.x + BOX.w / 2) * W);
    const cy = Math.round((BOX.y + BOX.h / 2) * H);
    const centre: number[] = [];
    for (let y = cy - 8; y < cy + 8; y++)
      for (let x = cx - 30; x < cx + 30; x++) centre.push(frame.y[y * W + x]);
    expect(mean(centre.map((v) => Math.abs(v - TINY_LAMA_YUV.y)))).toBeGreaterThan(20);
  }, 180_000);
});
