import { describe, expect, it } from 'vitest';
import { maskPhone } from './mask.ts';
import { currencySymbols, deriveProductPricing, monthlyPrice, parseProductDesc } from './products.ts';
import { rateToSpeedStep, SPEED_RATES, speedStepToRate } from './speed.ts';
import { formatDate, formatTime, formatTimeShort, parseTime } from './time.ts';
import { md5, ttsCacheKey } from './tts-cache-key.ts';

describe('speed steps', () => {
  it('maps every step to its rate and back', () => {
    expect(speedStepToRate(-5)).toBe(0.79);
    expect(speedStepToRate(0)).toBe(1);
    expect(speedStepToRate(5)).toBe(1.21);
    for (let step = -5; step <= 5; step++) expect(rateToSpeedStep(speedStepToRate(step))).toBe(step);
    expect(SPEED_RATES).toHaveLength(11);
  });
  it('rejects steps outside -5..5 and fractions', () => {
    expect(() => speedStepToRate(6)).toThrow(RangeError);
    expect(() => speedStepToRate(-6)).toThrow(RangeError);
    expect(() => speedStepToRate(0.5)).toThrow(RangeError);
  });
  it('snaps an inexact rate to the nearest step', () => {
    expect(rateToSpeedStep(1.1)).toBe(2);
    expect(rateToSpeedStep(0.5)).toBe(-5);
  });
});

describe('tts cache key', () => {
  it('is the md5 of text_md5_voice_model_speed with speed to 2 decimals', () => {
    const textMd5 = md5('你好');
    expect(md5('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    const key = ttsCacheKey({ text_md5: textMd5, voice_id: 'v1', model_id: 'm1', speed: 1 });
    expect(key).toBe(md5(`${textMd5}_v1_m1_1.00`));
    expect(ttsCacheKey({ text_md5: textMd5, voice_id: 'v1', model_id: 'm1', speed: 1.05 })).toBe(
      md5(`${textMd5}_v1_m1_1.05`),
    );
    expect(key).not.toBe(ttsCacheKey({ text_md5: textMd5, voice_id: 'v2', model_id: 'm1', speed: 1 }));
  });
});

describe('time parsing and formatting', () => {
  it('parses with dot, comma or no milliseconds', () => {
    expect(parseTime('00:00:01.500')).toBe(1500);
    expect(parseTime('01:02:03,004')).toBe(3_723_004);
    expect(parseTime('00:01:00')).toBe(60_000);
    expect(parseTime('00:00:00.5')).toBe(500);
  });
  it('rejects malformed strings', () => {
    expect(parseTime('1:2')).toBeNull();
    expect(parseTime('00:61:00')).toBeNull();
    expect(parseTime('abc')).toBeNull();
    expect(parseTime('00:00:01;500')).toBeNull();
  });
  it('formats hh:mm:ss.mmm and the tenths short form', () => {
    expect(formatTime(3_723_004)).toBe('01:02:03.004');
    expect(formatTime(0)).toBe('00:00:00.000');
    expect(formatTimeShort(61_560)).toBe('01:01.5');
    expect(formatTimeShort(3_723_004)).toBe('1:02:03.0');
    expect(parseTime(formatTime(123_456))).toBe(123_456);
  });
  it('formats dates as YYYY-MM-DD', () => {
    const ts = new Date(2026, 0, 5, 12).getTime() / 1000;
    expect(formatDate(ts)).toBe('2026-01-05');
  });
});

describe('phone masking', () => {
  it('keeps the first 3 and last 4 digits', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('+8613812345678')).toBe('138****5678');
    expect(maskPhone('12345')).toBe('12345');
  });
});

describe('product pricing', () => {
  const product = (after_charge: number, price: number, discount_price: number, currency = 'CNY') => ({
    after_charge,
    channel_details: [
      { country_code: 'US', price: 1, discount_price: 1, currency: 'USD', desc: '{}' },
      {
        country_code: 'CN',
        price,
        discount_price,
        currency,
        desc: JSON.stringify({ tags: ['推荐'], des: 'd', descTitle: 't', desList: ['a', 'b'] }),
      },
    ],
  });

  it('reads the CN channel: pays the discount price, shows the original only when after_charge is 1', () => {
    expect(deriveProductPricing(product(1, 129, 99))).toMatchObject({
      price: 99,
      originalPrice: 129,
      paySymbol: '¥',
    });
    expect(deriveProductPricing(product(0, 129, 99))?.originalPrice).toBeNull();
    expect(deriveProductPricing(product(1, 10, 0))).toMatchObject({ price: 10, originalPrice: null });
    expect(deriveProductPricing(product(1, 10, 10, 'EUR'))?.paySymbol).toBe('€');
    expect(deriveProductPricing(product(1, 10, 10, 'XYZ'))?.paySymbol).toBe('XYZ');
    expect(deriveProductPricing(product(1, 10, 10))?.desc.desList).toEqual(['a', 'b']);
    expect(deriveProductPricing({ after_charge: 0, channel_details: [] })).toBeNull();
  });

  it('maps about 27 currencies and survives a malformed desc', () => {
    expect(Object.keys(currencySymbols).length).toBeGreaterThanOrEqual(27);
    expect(parseProductDesc('not json')).toEqual({ tags: [], des: '', descTitle: '', desList: [] });
  });

  it('shows member prices per month', () => {
    expect(monthlyPrice(948, true)).toBe(79);
    expect(monthlyPrice(374, true)).toBe(31.17);
    expect(monthlyPrice(99, false)).toBe(99);
  });
});
