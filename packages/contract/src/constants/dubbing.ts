// Dubbing rules the web and the server share (zod-free, so the web imports it without the schemas).

/** A shortened line keeping less than this share of its characters has lost its meaning: flagged. */
export const MIN_KEPT_SHARE = 0.6;
