/** Chinese readings of digits and integers, shared by the reading layer (normalize.ts). */

const DIGITS = '零一二三四五六七八九';
const SMALL_UNITS = ['', '十', '百', '千'];
const BIG_UNITS = ['', '万', '亿', '万亿'];

/** Digit by digit: 2024 → 二〇二四 (years, phone numbers, codes). */
export function readDigits(s: string, zero = '〇'): string {
  return [...s].map((d) => (d === '0' ? zero : (DIGITS[Number(d)] ?? d))).join('');
}

/** An integer as a quantity: 10 → 十, 105 → 一百零五, 20010 → 两万零一十. */
export function readInteger(value: string): string {
  const s = value.replace(/^0+(?=\d)/, '');
  if (s === '0') return '零';
  if (s.length > 16) return readDigits(s, '零');
  const groups: string[] = [];
  for (let end = s.length; end > 0; end -= 4) groups.unshift(s.slice(Math.max(0, end - 4), end));
  let out = '';
  let pendingZero = false;
  groups.forEach((g, gi) => {
    const big = BIG_UNITS[groups.length - 1 - gi];
    const n = Number(g);
    if (n === 0) {
      pendingZero = out !== '';
      return;
    }
    const padded = g.padStart(4, '0');
    let part = '';
    let zero = pendingZero || (out !== '' && padded[0] === '0');
    for (let k = 0; k < 4; k++) {
      const d = Number(padded[k]);
      if (d === 0) {
        if (part) zero = true;
        continue;
      }
      if (zero && (part || out)) part += '零';
      zero = false;
      part += DIGITS[d] + SMALL_UNITS[3 - k];
    }
    out += part + big;
    pendingZero = false;
  });
  // 一十五 → 十五 at the start; 二千/二百/二万 read 两 before 千, 万, 亿 and 百 at the start.
  out = out.replace(/^一十/, '十');
  out = out.replace(/^二(?=[千万亿])/, '两').replace(/^二百/, '两百');
  return out;
}
