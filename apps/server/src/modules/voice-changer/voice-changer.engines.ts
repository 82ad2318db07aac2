import { createVcProviders, isEngineError, type VcProvider, type VcRegistry } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

/*
 * The voice-conversion engines of this process: Rubber Band R3 when rubberband-cli is installed, and a
 * vw-vc/1 server when VC_SERVER_URL is set. Built once per configuration (on first use, so processes
 * that never convert do not probe rubberband).
 */
const registries = new WeakMap<AppContext['config'], Promise<VcRegistry>>();

export function vcEngines(ctx: Pick<AppContext, 'config'>): Promise<VcRegistry> {
  let reg = registries.get(ctx.config);
  if (!reg) {
    const c = ctx.config;
    reg = createVcProviders({
      server: c.VC_SERVER_URL
        ? {
            baseURL: c.VC_SERVER_URL,
            apiKey: c.VC_SERVER_API_KEY,
            defaultVoice: c.VC_SERVER_VOICE,
            label: c.VC_SERVER_LABEL ?? 'VC 服务',
          }
        : undefined,
    });
    registries.set(ctx.config, reg);
  }
  return reg;
}

/** The engine to use (named, or the default) — err_interface_unavailable saying what to configure. */
export async function pickVcEngine(ctx: Pick<AppContext, 'config'>, id?: string): Promise<VcProvider> {
  try {
    return (await vcEngines(ctx)).get(id);
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
