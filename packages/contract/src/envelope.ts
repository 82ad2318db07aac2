import { z } from 'zod';

/** Every response body: `{code, msg, data}`; code 0 is success (spec §3). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}
export type Envelope<T> = { code: number; msg: string; data: T };

/** The 422 detail shape: `data.detail[0].type` names the error. */
export const errorDetail = z.object({
  type: z.string(),
  msg: z.string(),
  loc: z.array(z.union([z.string(), z.number()])).optional(),
});
export type ErrorDetail = z.infer<typeof errorDetail>;
export const validationErrorData = z.object({ detail: z.array(errorDetail) });
export type ValidationErrorData = z.infer<typeof validationErrorData>;
