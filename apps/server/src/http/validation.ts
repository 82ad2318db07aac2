import { type ErrorDetail, namedErrorMessage, namedErrorMessages } from '@vw/contract';
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** A request that does not match its contract schema; answered as code 422 with details. */
export class RequestValidationError extends Error {
  readonly statusCode = 200;
  constructor(
    readonly part: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super('request validation failed');
  }

  get details(): ErrorDetail[] {
    return this.issues.map((issue) => {
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      // A refinement may name a contract error directly (e.g. err_account_invalid).
      const named = issue.message in namedErrorMessages ? issue.message : undefined;
      const type = missing ? 'value_error.missing' : (named ?? 'value_error.invalid');
      return { type, msg: namedErrorMessage(type), loc: [this.part, ...issue.path.map(toLoc)] };
    });
  }
}

const toLoc = (key: PropertyKey) => (typeof key === 'number' ? key : String(key));

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(partName(httpPart), result.error.issues) };
  };

function partName(httpPart: string | undefined): string {
  return httpPart === 'querystring' ? 'query' : (httpPart ?? 'body');
}
