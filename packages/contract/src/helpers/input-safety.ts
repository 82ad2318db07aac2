/**
 * The one rule for text and free-form JSON that callers send (issue 14). Every string (and object
 * key) must be well-formed Unicode without U+0000: PostgreSQL cannot store U+0000 in text, and a
 * lone surrogate breaks UTF-8 encoding and hashing (the TTS cache key's MD5). Nesting is limited so
 * nothing later recurses into a value deep enough to overflow the stack (JSON.stringify).
 */

export const INPUT_LIMITS = {
  /** Nesting of any request body or query (the deepest contract body is far below this). */
  maxDepth: 32,
  /** Nesting of free-form JSON inside a value (analytics event properties). */
  maxFreeFormDepth: 8,
} as const;

export type UnsafeInputType = 'value_error.text_malformed' | 'value_error.too_deep';

export interface UnsafeInput {
  type: UnsafeInputType;
  /** Where it was found: keys and indexes from the root. */
  path: (string | number)[];
}

/** A surrogate without its pair (matched on UTF-16 code units: no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` is well-formed UTF-16 (no lone surrogate) and has no U+0000. */
export function isSafeText(s: string): boolean {
  return !s.includes('\0') && !LONE_SURROGATE.test(s);
}

/**
 * The first place in `value` that breaks the rule, or null. Walks without recursion, so a value
 * nested deeper than the stack allows is reported, not crashed on.
 */
export function findUnsafeInput(
  value: unknown,
  maxDepth: number = INPUT_LIMITS.maxDepth,
): UnsafeInput | null {
  const stack: { v: unknown; depth: number; path: (string | number)[] }[] = [
    { v: value, depth: 0, path: [] },
  ];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isSafeText(v)) return { type: 'value_error.text_malformed', path };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return { type: 'value_error.too_deep', path };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], depth: depth + 1, path: [...path, i] });
      continue;
    }
    for (const [k, child] of Object.entries(v)) {
      if (!isSafeText(k)) return { type: 'value_error.text_malformed', path: [...path, k] };
      stack.push({ v: child, depth: depth + 1, path: [...path, k] });
    }
  }
  return null;
}
