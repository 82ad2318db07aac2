import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_DEFAULTS, qrDataUrl, qrVersion } from './qrcode.ts';

describe('QR helper', () => {
  it('refuses empty text with "No input text"', async () => {
    await expect(qrDataUrl('')).rejects.toThrow('No input text');
    expect(() => qrVersion('')).toThrow('No input text');
  });

  it('uses margin 4, scale 4, error correction M; the version grows with the text (1–40)', async () => {
    expect(QR_DEFAULTS).toEqual({ margin: 4, scale: 4, errorCorrectionLevel: 'M' });
    expect(qrVersion('hi')).toBe(1);
    expect(qrVersion('x'.repeat(2000))).toBeGreaterThan(30);
    expect(qrVersion('x'.repeat(2000))).toBeLessThanOrEqual(40);
    const url = await qrDataUrl('https://example.com/');
    expect(url).toMatch(/^data:image\/png;base64,/);
    // size = (modules + 2 × margin) × scale
    const modules = QRCode.create('https://example.com/', { errorCorrectionLevel: 'M' }).modules.size;
    const png = Buffer.from(url.split(',')[1], 'base64');
    expect(png.readUInt32BE(16)).toBe((modules + 8) * 4);
  });
});
