import QRCode from 'qrcode';

/** QR defaults of spec §9: margin 4 modules, scale 4, error correction M; the version (1–40) fits the text. */
export const QR_DEFAULTS = { margin: 4, scale: 4, errorCorrectionLevel: 'M' as const };

/** A QR code image (PNG data URL) for non-empty text; empty text is refused with `No input text`. */
export async function qrDataUrl(
  text: string,
  options: { width?: number; margin?: number } = {},
): Promise<string> {
  if (!text) throw new Error('No input text');
  // The encoder picks the smallest version (1–40) that fits and refuses longer texts itself.
  return QRCode.toDataURL(text, {
    errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel,
    margin: options.margin ?? QR_DEFAULTS.margin,
    ...(options.width ? { width: options.width } : { scale: QR_DEFAULTS.scale }),
  });
}

/** The QR's version for a text (1–40; longer texts need larger versions). */
export const qrVersion = (text: string) => {
  if (!text) throw new Error('No input text');
  return QRCode.create(text, { errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel }).version;
};
