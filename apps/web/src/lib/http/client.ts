import type { CallBody, CallData, CallDef, CallQuery, SecureTokens, UserInfo } from '@vw/contract';
import {
  clearUserInfo,
  getDeviceId,
  readAccessToken,
  readTokens,
  StorageKey,
  saveTokens,
  saveUserInfo,
} from '../auth/storage.ts';
import { ApiError, describeEnvelopeError, detailType, type ErrorDisplay, networkDisplay } from './errors.ts';

export const BUNDLE_ID = 'com.voiceworkbench.web';

type Method = CallDef['method'];

/**
 * An endpoint as the client sends it: method and path, typed by hand or from a contract call
 * (`api.ts`); the phantom field only carries the types.
 */
export interface RawEndpoint<B = undefined, Q = undefined, D = unknown> {
  method: Method;
  path: string;
  readonly __types?: { body: B; query: Q; data: D };
}
export function rawEndpoint<D, B = undefined, Q = undefined>(
  method: Method,
  path: string,
): RawEndpoint<B, Q, D> {
  return { method, path };
}

// biome-ignore lint/suspicious/noExplicitAny: matches every CallDef regardless of its schemas
type AnyCallDef = CallDef<any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: matches every RawEndpoint
export type AnyCall = AnyCallDef | RawEndpoint<any, any, any>;

export type BodyOf<C> = C extends AnyCallDef
  ? CallBody<C>
  : C extends RawEndpoint<infer B, infer _Q, infer _D>
    ? B
    : never;
export type QueryOf<C> = C extends AnyCallDef
  ? CallQuery<C>
  : C extends RawEndpoint<infer _B, infer Q, infer _D>
    ? Q
    : never;
export type DataOf<C> = C extends AnyCallDef
  ? CallData<C>
  : C extends RawEndpoint<infer _B, infer _Q, infer D>
    ? D
    : never;

export interface RequestInput<C> {
  body?: BodyOf<C> | FormData;
  query?: QueryOf<C>;
}

export interface RequestOptions {
  /** Per-request suppression of the general error message (spec §8). */
  suppressError?: boolean;
  /**
   * 'blob': the body as a Blob (file downloads). 'response': a 2xx whose body is not JSON comes
   * back as the Response itself (streamed audio); JSON envelopes are handled as usual.
   */
  responseType?: 'json' | 'blob' | 'response';
  signal?: AbortSignal;
  /** Internal: do not try a refresh on 401 (the refresh call itself, retried requests). */
  noRefresh?: boolean;
  /** Internal (requestWithMessage): answer `{data, msg}` instead of the data. */
  withMessage?: boolean;
}

export interface HttpHooks {
  /** Shows the general error message (toast, credit prompt). */
  onError?: (display: ErrorDisplay, error: ApiError) => void;
  /** The refresh failed: user info is already cleared; send the browser to /login. */
  onAuthFailure?: () => void;
  /** A refresh succeeded: fresh tokens are stored; the user info came with them. */
  onSessionRefreshed?: (user: UserInfo) => void;
  /**
   * A call failed for lack of credits (spec §4, credits). Runs for every such failure, also when
   * the request suppresses the general error message, so the balance shown is never stale.
   */
  onCreditShortage?: (error: ApiError, suppressed: boolean) => void;
}

export interface HttpClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  hooks?: HttpHooks;
}

function buildQuery(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The refresh call (contract: accounts refreshToken); a 401 from it never triggers a refresh. */
const TOKEN_PATH = '/accounts/v1/token';

export class HttpClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  hooks: HttpHooks;
  /** The refresh in flight: every 401 that arrives meanwhile waits on it (spec §4). */
  private refreshing: Promise<boolean> | null = null;
  /** How many refresh calls this client has made (observability and tests). */
  refreshCount = 0;

  constructor(options: HttpClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.hooks = options.hooks ?? {};
  }

  /** Calls an endpoint and returns the envelope's data, typed by the contract. */
  async request<C extends AnyCall>(
    call: C,
    input: RequestInput<C> = {},
    options: RequestOptions = {},
  ): Promise<DataOf<C>> {
    return this.execute(call, input, options, false) as Promise<DataOf<C>>;
  }

  /** Like `request`, with the envelope's `msg` too (export status 3 shows what the server says). */
  async requestWithMessage<C extends AnyCall>(
    call: C,
    input: RequestInput<C> = {},
    options: RequestOptions = {},
  ): Promise<{ data: DataOf<C>; msg: string | undefined }> {
    return this.execute(call, input, { ...options, withMessage: true }, false) as Promise<{
      data: DataOf<C>;
      msg: string | undefined;
    }>;
  }

  /**
   * Calls an endpoint that answers either a non-JSON body (an audio stream: the Response is
   * returned unread) or the usual envelope (its data is returned; errors as for `request`).
   */
  async requestResponse<C extends AnyCall>(
    call: C,
    input: RequestInput<C> = {},
    options: Omit<RequestOptions, 'responseType'> = {},
  ): Promise<Response | DataOf<C>> {
    return this.execute(call, input, { ...options, responseType: 'response' }, false) as Promise<
      Response | DataOf<C>
    >;
  }

  private fail(error: ApiError, options: RequestOptions): never {
    if (!options.suppressError) this.report(error);
    else if (error.display.kind === 'credit') this.hooks.onCreditShortage?.(error, true);
    throw error;
  }

  /** Shows an error the way a failed request does: for a caller that suppressed it while it might retry. */
  report(error: ApiError): void {
    if (error.display.kind !== 'none') this.hooks.onError?.(error.display, error);
    if (error.display.kind === 'credit') this.hooks.onCreditShortage?.(error, false);
  }

  private async execute(
    call: AnyCall,
    input: RequestInput<AnyCall>,
    options: RequestOptions,
    retried: boolean,
  ): Promise<unknown> {
    const usedToken = readAccessToken();
    const headers: Record<string, string> = {
      'X-Device-Id': getDeviceId(),
      'X-Bundle-Id': BUNDLE_ID,
    };
    if (usedToken) headers.Authorization = `Bearer ${usedToken}`;
    let body: BodyInit | undefined;
    if (input.body instanceof FormData) {
      body = input.body; // the browser sets the multipart boundary
    } else if (call.method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input.body ?? {});
    } else {
      headers['Content-Type'] = 'application/json';
    }

    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${call.path}${buildQuery(input.query)}`, {
        method: call.method,
        headers,
        body,
        signal: options.signal,
      });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      return this.fail(new ApiError({ kind: 'network', display: networkDisplay() }), options);
    }

    if (options.responseType === 'blob' && res.ok) return res.blob();
    if (options.responseType === 'response' && res.ok && !/json/i.test(res.headers.get('content-type') ?? ''))
      return res;

    let envelope: { code?: unknown; msg?: unknown; data?: unknown } | null = null;
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // Cancelled while the body was arriving (a newer load or event replaced this one): not a failure.
      if (options.signal?.aborted || (e as Error)?.name === 'AbortError') throw e;
      return this.fail(new ApiError({ kind: 'network', display: networkDisplay() }), options);
    }
    try {
      envelope = text ? JSON.parse(text) : null;
    } catch {
      envelope = null;
    }
    const hasEnvelope =
      envelope !== null && typeof envelope === 'object' && typeof envelope.code === 'number';
    const code = hasEnvelope ? (envelope!.code as number) : res.ok ? 0 : res.status;
    const msg = hasEnvelope && typeof envelope!.msg === 'string' ? envelope!.msg : undefined;
    const data = hasEnvelope ? envelope!.data : undefined;

    const unauthorized = res.status === 401 || code === 401;
    if (unauthorized && call.path !== TOKEN_PATH && !options.noRefresh) {
      if (!retried) {
        const current = readAccessToken();
        // Another request already refreshed after this one was sent: just retry with the new token.
        const ok = current && current !== usedToken ? true : await this.refreshSession();
        if (ok) return this.execute(call, input, options, true);
      } else {
        // Still refused with a fresh token: the session is gone.
        this.expireSession();
      }
      throw new ApiError({
        kind: 'auth',
        code: 401,
        httpStatus: res.status,
        display: { kind: 'none', text: describeEnvelopeError(401, msg, data).text },
      });
    }

    if (res.ok && hasEnvelope && code === 0) return options.withMessage ? { data, msg } : data;
    if (res.ok && !hasEnvelope) {
      // A 2xx without an envelope is a server bug; report it as a failed operation.
      return this.fail(
        new ApiError({
          kind: 'http',
          httpStatus: res.status,
          display: describeEnvelopeError(-1, undefined, null),
        }),
        options,
      );
    }
    return this.fail(
      new ApiError({
        kind: res.ok ? 'business' : 'http',
        code,
        httpStatus: res.status,
        type: detailType(data),
        display: describeEnvelopeError(code, msg, data),
        data,
        serverMessage: msg,
      }),
      options,
    );
  }

  /**
   * Runs at most one refresh at a time; callers arriving while it runs share its outcome.
   * Success stores the rotated tokens; failure clears user info and reports the auth failure.
   */
  refreshSession(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const tokens = readTokens();
    if (!tokens?.refresh_token) {
      this.expireSession();
      return false;
    }
    try {
      this.refreshCount++;
      const data = await this.request(
        rawEndpoint<{ secure_tokens: SecureTokens; user_info: UserInfo }, { refresh_token: string }>(
          'POST',
          TOKEN_PATH,
        ),
        { body: { refresh_token: tokens.refresh_token } },
        { suppressError: true, noRefresh: true },
      );
      saveTokens(data.secure_tokens);
      saveUserInfo(data.user_info);
      this.hooks.onSessionRefreshed?.(data.user_info);
      return true;
    } catch {
      this.expireSession();
      return false;
    }
  }

  private expireSession(): void {
    clearUserInfo();
    localStorage.removeItem(StorageKey.secureTokens);
    localStorage.removeItem(StorageKey.accessToken);
    this.hooks.onAuthFailure?.();
  }
}

/** The app's client: same origin, hooks wired by the app shell at startup. */
export const http = new HttpClient();

export function request<C extends AnyCall>(
  call: C,
  input?: RequestInput<C>,
  options?: RequestOptions,
): Promise<DataOf<C>> {
  return http.request(call, input, options);
}
