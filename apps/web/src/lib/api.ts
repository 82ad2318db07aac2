import type { TenantBonus } from '@vw/contract';
import { rawEndpoint } from './http/client.ts';

/**
 * Calls the shell loads at startup whose contract definitions arrive with later issues
 * (tenant bonus, voices, models, products). Until then they are typed here by hand and their
 * failures are tolerated silently.
 */
export const pendingCalls = {
  getTenantBonus: rawEndpoint<TenantBonus | { tenant_bonus: TenantBonus }>('GET', '/v1/tenant/get_tenant_bonus'),
  getDefaultVoice: rawEndpoint<{ default_voice_map: Record<string, unknown> }>('GET', '/p1/voices/get_default_voice'),
  getAllVoices: rawEndpoint<{ voices: unknown[] }, undefined, { status: number[]; legacy_voice_skip_disabled: boolean }>(
    'GET',
    '/p1/voices/internal_get_all_voices',
  ),
  getSupportedModel: rawEndpoint<{ models: unknown[] }>('GET', '/p1/voices/get_supported_model'),
  getProducts: rawEndpoint<{ product_list: unknown[] }, undefined, { type: number }>('GET', '/v1/app/products'),
};
