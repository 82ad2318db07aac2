import { type KeepRegion, runFfmpeg } from '@vw/engines';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../errors.ts';

/** Without SEPARATOR_URL (a vw-sep/1 server, e.g. Demucs or UVR behind a wrapper; see the admin CLI). */
export const SEPARATOR_MISSING = '人声分离暂未开放：请改选「静音原声」或「保留原声」，或联系管理员';

/** `separated` needs a separator: refused before anything is held or written. */
export function assertBackground(ctx: Pick<AppContext, 'engines'>, background: string | undefined) {
  if (background === 'separated' && !ctx.engines.separate)
    throw AppError.named('err_interface_unavailable', SEPARATOR_MISSING);
}

/**
 * The bed under the dub in `separated` mode: the accompaniment, plus the separated voices inside the
 * [保留原声] regions (there the original is kept whole). Without keep regions the accompaniment itself.
 */
export async function separatedBackground(
  stems: { vocals: string; accompaniment: string },
  keep: KeepRegion[],
  out: string,
  signal?: AbortSignal,
): Promise<string> {
  if (keep.length === 0) return stems.accompaniment;
  const inside = keep
    .map((r) => `between(t,${(r.start_ms / 1000).toFixed(3)},${(r.end_ms / 1000).toFixed(3)})`)
    .join('+');
  await runFfmpeg(
    [
      '-i',
      stems.accompaniment,
      '-i',
      stems.vocals,
      '-filter_complex',
      `[1:a]volume=0:enable='not(${inside})'[v];[0:a][v]amix=inputs=2:normalize=0:duration=first`,
      '-c:a',
      'pcm_s16le',
      '-y',
      out,
    ],
    { signal },
  );
  return out;
}
