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

export function createVcRegistry(providers: VcProvider[], problem = ''): VcRegistry {
  return {
    problem: providers.length ? '' : problem,
    list: () => providers.map(({ id, label, kind, usesReference }) => ({ id, label, kind, usesReference })),
    get(id) {
      const found = id ? providers.find((p) => p.id === id) : providers[0];
      if (found) return found;
      if (id) {
        const hint = id === 'vc-server' ? '请设置 VC_SERVER_URL（变声服务地址）' : '可用引擎见能力列表';
        throw new EngineError(
          'engine_not_configured',
          `变声引擎 ${id} 未配置：${hint}`,
          `voice changer engine ${id} is not configured`,
        );
      }
      throw new EngineError(
        'engine_not_configured',
        problem ||
          '未配置变声引擎：请安装 rubberband-cli（apt-get install rubberband-cli）或设置 VC_SERVER_URL',
        'no voice changer engine: install rubberband-cli or set VC_SERVER_URL',
      );
    },
  };
}

/** Rubber Band R3 when rubberband-cli is installed, plus a VC server when VC_SERVER_URL is set. */
export async function createVcProviders(opts: { server?: HttpVcOptions } = {}): Promise<VcRegistry> {
  const providers: VcProvider[] = [];
  if (await rubberbandAvailable()) providers.push(createRubberbandProvider());
  if (opts.server?.baseURL) providers.push(createHttpVcProvider(opts.server));
  return createVcRegistry(
    providers,
    '未配置变声引擎：请安装 rubberband-cli（apt-get install rubberband-cli），或设置 VC_SERVER_URL 指向变声服务',
  );
}
