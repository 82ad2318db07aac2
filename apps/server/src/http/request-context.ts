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
  return {
    deviceId: headerValue(request.headers[DEVICE_ID_HEADER]),
    bundleId: headerValue(request.headers[BUNDLE_ID_HEADER]),
  };
}

function headerValue(v: string | string[] | undefined): string | null {
  return typeof v === 'string' && v.length > 0 ? v.slice(0, 128) : null;
}
