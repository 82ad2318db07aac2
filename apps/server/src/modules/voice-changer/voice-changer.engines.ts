import type { VcProvider } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { ENGINE_FAILURES, engineAppError } from '../../engine-errors.ts';
import type { AppError } from '../../errors.ts';

/** The engine to use (named, or the default) — err_interface_unavailable saying what to configure. */
export async function pickVcEngine(ctx: Pick<AppContext, 'engines'>, id?: string): Promise<VcProvider> {
  try {
    return (await ctx.engines.vc()).get(id);
  } catch (err) {
    throw vcError(err);
  }
}

/** An engine failure as the error a user sees (the engine's Chinese sentence kept). */
export const vcError = (err: unknown): AppError => engineAppError(err, ENGINE_FAILURES.conversion);
