import { EngineError } from '../errors.ts';
import { createRegistry, type Registry } from '../registry.ts';
import { createHttpVcProvider, type HttpVcOptions } from './http.ts';
import { createRubberbandProvider, rubberbandAvailable } from './rubberband.ts';
import type { VcProvider } from './types.ts';

/** Voice changer engines by id, the offline default first; a miss names what to install or configure. */
export interface VcRegistry extends Registry<VcProvider> {
  list(): Array<Pick<VcProvider, 'id' | 'label' | 'kind' | 'usesReference'>>;
  /** Why there is no engine at all ('' when there is one). */
  readonly problem: string;
}

/** What a user is told without any voice changer engine; the operator reads the English in the log. */
export const VC_UNAVAILABLE_ZH = '变声功能暂未开放，请联系管理员';
const VC_UNAVAILABLE_EN =
  'no voice changer engine: install rubberband-cli (apt-get install rubberband-cli) or set VC_SERVER_URL';

export function createVcRegistry(providers: VcProvider[], problem = ''): VcRegistry {
  const registry = createRegistry(providers, [], {
    missing(id) {
      if (id) {
        const hint = id === 'vc-server' ? ': set VC_SERVER_URL' : '';
        return new EngineError(
          'engine_not_configured',
          `变声引擎 ${id} 暂未开放，请换用其他变声引擎`,
          `voice changer engine ${id} is not configured${hint}`,
        );
      }
      return new EngineError('engine_not_configured', problem || VC_UNAVAILABLE_ZH, VC_UNAVAILABLE_EN);
    },
  });
  return {
    ...registry,
    problem: providers.length ? '' : problem,
    list: () => providers.map(({ id, label, kind, usesReference }) => ({ id, label, kind, usesReference })),
    // An empty id asks for the default too.
    get: (id) => registry.get(id || undefined),
  };
}

/** Rubber Band R3 when rubberband-cli is installed, plus a VC server when VC_SERVER_URL is set. */
export async function createVcProviders(opts: { server?: HttpVcOptions } = {}): Promise<VcRegistry> {
  const providers: VcProvider[] = [];
  if (await rubberbandAvailable()) providers.push(createRubberbandProvider());
  if (opts.server?.baseURL) providers.push(createHttpVcProvider(opts.server));
  return createVcRegistry(providers, VC_UNAVAILABLE_ZH);
}
