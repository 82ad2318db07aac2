import { describe, expect, it } from 'vitest';
import { findUnsafeInput, isSafeText } from './input-safety.ts';

describe('the input rule', () => {
  it('accepts well-formed text, refuses U+0000 and lone surrogates', () => {
    expect(isSafeText('你好 😀 abc')).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('\ud800')).toBe(false);
    expect(isSafeText('x\udc00')).toBe(false);
    expect(isSafeText('\ud83d\ude00')).toBe(true);
  });

  it('finds the first bad string or key with its path, and nesting past the limit, without recursion', () => {
    expect(findUnsafeInput({ a: ['ok', { b: 'x\u0000' }] })).toEqual({
      type: 'value_error.text_malformed',
      path: ['a', 1, 'b'],
    });
    expect(findUnsafeInput({ 'k\ud800': 1 })?.type).toBe('value_error.text_malformed');
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeInput(deep)?.type).toBe('value_error.too_deep');
    expect(findUnsafeInput({ a: { b: 1 } }, 2)).toBeNull();
    expect(findUnsafeInput({ a: { b: { c: 1 } } }, 2)?.type).toBe('value_error.too_deep');
    expect(findUnsafeInput(undefined)).toBeNull();
  });
});
