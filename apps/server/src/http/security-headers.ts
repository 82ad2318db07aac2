import helmet from 'helmet';

/**
 * Helmet's headers, computed once: they are the same for every response, so running the
 * middleware per request (as @fastify/helmet does) would only burn time on the hot path. For
 * anything that may be shown as a page: the web app, the docs, files, unknown paths.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        // antd writes inline styles; swagger-ui needs inline styles too.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })({} as never, res as never, () => {});
  return headers;
}

/**
 * The headers of a contract call's answer: JSON (or audio) that the client fetches and never shows
 * as a page. The page-only headers (a CSP of what a page may load, opener, agent cluster, DNS
 * prefetch, IE's download and XSS switches, Flash policies) do nothing there, and each header costs
 * every response its validation and bytes; what such an answer needs, as in OWASP's REST guidance,
 * stays and is stricter: it may load nothing and be framed by nobody, is never sniffed as another
 * type, is same-origin only, HTTPS only, and sends no referrer.
 */
export function callSecurityHeaders(): Record<string, string> {
  const page = securityHeaders();
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': page['strict-transport-security'],
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  };
}
