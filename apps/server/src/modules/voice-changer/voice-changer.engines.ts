import { isEngineError, type VcProvider } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

/** The engine to use (named, or the default) — err_interface_unavailable saying what to configure. */
export async function pickVcEngine(ctx: Pick<AppContext, 'engines'>, id?: string): Promise<VcProvider> {
  try {
    return (await ctx.engines.vc()).get(id);
  } catch (err) {
    throw vcError(err);
  }
}

/** An engine failure as the error a user sees (the engine's Chinese sentence kept). */
export function vcError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isEngineError(err)) {
    switch (err.code) {
      case 'engine_not_configured':
      case 'engine_unavailable':
        return AppError.named('err_interface_unavailable', err.zh);
      case 'media_failed':
      case 'media_unsupported':
        return AppError.named('err_file_not_supported', err.zh);
      case 'invalid_request':
        return AppError.named('err_invalid_param', err.zh);
      default:
        return AppError.named('err_generate_voice_failed', `变声失败：${err.zh}`);
    }
  }
  return AppError.named('err_system');
}
