import type { AppContext } from '../../context.ts';

/*
 * What the speech-to-text module needs from the media slice (plan limits), kept in one place so the
 * merge changes one file.
 * MERGE: return from `getMediaLimits(ctx, userId)` (modules/features/features.service.ts):
 *   { maxBytes: limits.max_upload_bytes, maxSeconds: limits.max_duration_seconds }.
 */

export interface UploadLimits {
  maxBytes: number;
  maxSeconds: number;
}

/** Until the plan's media limits are merged: what the largest plan allows (2 GiB, 4 hours). */
const LARGEST_PLAN: UploadLimits = { maxBytes: 2 * 1024 ** 3, maxSeconds: 4 * 3600 };

export async function uploadLimitsOf(_ctx: AppContext, _userId: string): Promise<UploadLimits> {
  return LARGEST_PLAN;
}
