import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the API: the server registers it, the web client calls it, OpenAPI documents it.
 * `auth` says who may call it: a signed-in user (default) or anyone.
 */
export interface CallDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Data extends z.ZodType = z.ZodType,
  Auth extends 'user' | 'public' = 'user' | 'public',
> {
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tags: string[];
  auth: Auth;
  body?: Body;
  query?: Query;
  data: Data;
}

export function defineCall<
  Data extends z.ZodType,
  Auth extends 'user' | 'public',
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
>(def: CallDef<Body, Query, Data, Auth>): CallDef<Body, Query, Data, Auth> {
  return def;
}

export type CallBody<C> =
  C extends CallDef<infer B, z.ZodType | undefined, z.ZodType>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;
export type CallQuery<C> =
  C extends CallDef<z.ZodType | undefined, infer Q, z.ZodType>
    ? Q extends z.ZodType
      ? z.input<Q>
      : undefined
    : never;
export type CallData<C> =
  C extends CallDef<z.ZodType | undefined, z.ZodType | undefined, infer D> ? z.output<D> : never;
