import path from 'node:path';
import { makeSubtitledClip } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { withScratchDir } from '../../media/scratch.ts';
import { toAccountKey } from '../accounts/account-key.ts';
import { findUserByAccount } from '../accounts/accounts.repo.ts';
import { setFeatureOverride } from '../features/features.service.ts';
import { registerAsset } from '../uploads/register.ts';
import { findAssetIdByName } from './ocr.repo.ts';

/** The demo account's sample video (outside production): its name is also how it is found again. */
export const DEMO_SAMPLE_NAME = '示例视频（带字幕）.mp4';

export const DEMO_SAMPLE_CUES = [
  { text: '欢迎使用声音工作台', start_ms: 300, end_ms: 2600, position: 'bottom' as const },
  { text: '这段视频带有内嵌字幕', start_ms: 2900, end_ms: 5200, position: 'bottom' as const },
  { text: '可以试试字幕提取和擦除', start_ms: 5500, end_ms: 7800, position: 'bottom' as const },
];

/**
 * Outside production the demo account gets, once, a short video with burned-in Chinese subtitles
 * (libass + Noto Sans CJK) and espeak-ng speech among its uploaded assets, and the erase/watermark
 * switches, so a new user can try recognition and erasing at once. Idempotent (found by name);
 * started in the background at start-up (main.ts), never in tests.
 */
export async function ensureDemoSample(ctx: AppContext): Promise<string | null> {
  if (ctx.config.isProduction) return null;
  const user = await findUserByAccount(ctx.db, toAccountKey(ctx.config.DEMO_ACCOUNT));
  if (!user) return null;
  const existing = await findAssetIdByName(ctx.db, user.id, DEMO_SAMPLE_NAME);
  if (existing) return existing;
  await setFeatureOverride(ctx, user.id, 'subtitle_erase', true);
  await setFeatureOverride(ctx, user.id, 'remove_watermark', true);
  return withScratchDir(ctx, `demo-sample-${user.id}`, async (dir) => {
    const file = path.join(dir, 'sample.mp4');
    await makeSubtitledClip(file, {
      width: 640,
      height: 360,
      duration_ms: 8000,
      background: 'moving',
      cues: DEMO_SAMPLE_CUES,
      speech: true,
    });
    const row = await registerAsset(ctx, user.id, { file, name: DEMO_SAMPLE_NAME });
    ctx.log.info({ assetId: row.id }, 'demo sample video ready');
    return row.id;
  });
}
