/*
 * 口型同步 (lip sync): the lip-sync server of `ctx.engines.lipsync` (packages/engines lipsync/http.ts). Hidden (and
 * refused) when unconfigured; behind the `lip_sync` switch.
 */

/** Without LIPSYNC_URL (a vw-lipsync/1 server, e.g. Wav2Lip or LatentSync; see the admin CLI). */
export const LIPSYNC_MISSING = '口型同步暂未开放，请联系管理员';
