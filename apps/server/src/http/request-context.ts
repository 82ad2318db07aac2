import type { IncomingMessage } from 'node:http';

export const DEVICE_ID_HEADER = 'x-device-id';
export const BUNDLE_ID_HEADER = 'x-bundle-id';

export interface AuthUser {
  uid: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/** Device and bundle ids as the client sent them, trimmed to a sane length. */
export function clientIds(request: Pick<IncomingMessage, 'headers'>): {
  deviceId: string | null;
  bundleId: string | null;
} {
  const header = (name: string) => {
    const v = request.headers[name];
    return typeof v === 'string' && v.length > 0 ? v.slice(0, 128) : null;
  };
  return { deviceId: header(DEVICE_ID_HEADER), bundleId: header(BUNDLE_ID_HEADER) };
}
