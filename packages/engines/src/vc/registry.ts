import { EngineError } from '../errors.ts';
import { createHttpVcProvider, type HttpVcOptions } from './http.ts';
import { createRubberbandProvider, rubberbandAvailable } from './rubberband.ts';
import type { VcProvider } from './types.ts';

export interface VcRegistry {
  /** Working engines, the offline default first. */
  list(): Array<Pick<VcProvider, 'id' | 'label' | 'kind' | 'usesReference'>>;
  /** By id, or the first (default); an EngineError naming what to install/configure otherwise. */
  get(id?: string): VcProvider;
  /** Why there is no engine at all ('' when there is one). */
  readonly problem: string;
}

/** What a user is told without any voice changer engine; the operator reads the English in the log. */
export const VC_UNAVAILABLE_ZH = '变声功能暂未开放，请联系管理员';
const VC_UNAVAILABLE_EN =
  'no voice changer engine: install rubberband-cli (apt-get install rubberband-cli) or set VC_SERVER_URL';

export function createVcRegistry(providers: VcProvider[], problem = ''): VcRegistry {
  return {
    problem: providers.length ? '' : problem,
    list: () => providers.map(({ id, label, kind, usesReference }) => ({ id, label, kind, usesReference })),
    get(id) {
      const found = id ? providers.find((p) => p.id === id) : providers[0];
      if (found) return found;
      if (id) {
        const hint = id === 'vc-server' ? ': set VC_SERVER_URL' : '';
        throw new EngineError(
          'engine_not_configured',
          `变声引擎 ${id} 暂未开放，请换用其他变声引擎`,
          `voice changer engine ${id} is not configured${hint}`,
        );
      }
      throw new EngineError('engine_not_configured', problem || VC_UNAVAILABLE_ZH, VC_UNAVAILABLE_EN);
    },
  };
}

/** Rubber Band R3 when rubberband-cli is installed, plus a VC server when VC_SERVER_URL is set. */
export async function createVcProviders(opts: { server?: HttpVcOptions } = {}): Promise<VcRegistry> {
  const providers: VcProvider[] = [];
  if (await rubberbandAvailable()) providers.push(createRubberbandProvider());
  if (opts.server?.baseURL) providers.push(createHttpVcProvider(opts.server));
  return createVcRegistry(providers, VC_UNAVAILABLE_ZH);
}
