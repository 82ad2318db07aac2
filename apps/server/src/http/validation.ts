import { type ErrorDetail, findUnsafeInput, namedErrorMessage, namedErrorMessages } from '@vw/contract';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** A request that does not match its contract (or the input rule); answered as code 422 with details. */
export class RequestValidationError extends Error {
  readonly statusCode = 200;
  constructor(readonly details: ErrorDetail[]) {
    super('request validation failed');
  }

  static fromZod(part: string, issues: z.core.$ZodIssue[]): RequestValidationError {
    return new RequestValidationError(
      issues.map((issue) => {
        const missing = issue.code === 'invalid_type' && issue.input === undefined;
        // A refinement may name a contract error directly (e.g. err_account_invalid).
        const named = issue.message in namedErrorMessages ? issue.message : undefined;
        const type = missing ? 'value_error.missing' : (named ?? 'value_error.invalid');
        return { type, msg: namedErrorMessage(type), loc: [part, ...issue.path.map(toLoc)] };
      }),
    );
  }
}

const toLoc = (key: PropertyKey) => (typeof key === 'number' ? key : String(key));

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: RequestValidationError.fromZod(partName(httpPart), result.error.issues) };
  };

function partName(httpPart: string | undefined): string {
  return httpPart === 'querystring' ? 'query' : (httpPart ?? 'body');
}

/**
 * The input rule for every route, whatever its schema (or none): each string of the parsed body,
 * query and path parameters is well-formed Unicode without U+0000, and nothing nests deeper than
 * INPUT_LIMITS.maxDepth. A root-level hook, so routes that modules add later are covered too; it runs
 * before schema validation, so neither a handler nor the database nor a hash ever sees such input.
 */
export function registerInputRule(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    done(
      unsafeIn('body', request.body) ?? unsafeIn('query', request.query) ?? unsafeIn('path', request.params),
    );
  });
}

function unsafeIn(part: string, value: unknown): RequestValidationError | undefined {
  // Most calls have no body, query or path parameters: nothing to walk (this runs on every request).
  if (value === undefined || isEmptyObject(value)) return undefined;
  const unsafe = findUnsafeInput(value);
  if (!unsafe) return undefined;
  const detail = { type: unsafe.type, msg: namedErrorMessage(unsafe.type), loc: [part, ...unsafe.path] };
  return new RequestValidationError([detail]);
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}
