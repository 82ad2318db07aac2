/**
 * Text → what a Chinese voice should read: numbers, dates, times, units, percentages and symbols are
 * written out in Chinese, full-width letters and digits made half-width first.
 */

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

function readNumber(n: string): string {
  const negative = n.startsWith('-');
  const body = n.replace(/^[-+]/, '').replace(/,/g, '');
  const [int, frac] = body.split('.');
  let out = readInteger(int || '0');
  if (frac) out += `点${readDigits(frac, '零')}`;
  return (negative ? '负' : '') + out;
}

const UNITS: Array<[string, string]> = [
  ['km/h', '公里每小时'],
  ['m/s', '米每秒'],
  ['km²', '平方公里'],
  ['m²', '平方米'],
  ['㎡', '平方米'],
  ['m³', '立方米'],
  ['km', '公里'],
  ['kg', '公斤'],
  ['mg', '毫克'],
  ['cm', '厘米'],
  ['mm', '毫米'],
  ['ml', '毫升'],
  ['mL', '毫升'],
  ['GB', 'G B'],
  ['MB', 'M B'],
  ['KB', 'K B'],
  ['kW', '千瓦'],
  ['kWh', '千瓦时'],
  ['℃', '摄氏度'],
  ['°C', '摄氏度'],
  ['°F', '华氏度'],
  ['°', '度'],
  ['m', '米'],
  ['g', '克'],
  ['L', '升'],
  ['h', '小时'],
  ['min', '分钟'],
  ['s', '秒'],
  ['t', '吨'],
];
const UNIT_RE = new RegExp(
  `(-?\\d+(?:\\.\\d+)?)\\s?(${UNITS.map(([u]) => u.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length)
    .join('|')})(?![A-Za-z])`,
  'g',
);
const UNIT_MAP = new Map(UNITS);

function toHalfWidth(text: string): string {
  return text
    .replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g, (c) =>
      String.fromCharCode(c.charCodeAt(0) - 0xfee0),
    )
    .replace(/[％＋－＝＜＞＠＃＆＊／．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

export function normalizeForSpeech(input: string): string {
  let t = toHalfWidth(input);
  // Dates.
  t = t.replace(
    /(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?/g,
    (_m, y, mo, d) => `${readDigits(y)}年${readInteger(mo)}月${readInteger(d)}日`,
  );
  t = t.replace(/(\d{2,4})年/g, (_m, y) => `${readDigits(y)}年`);
  t = t.replace(/(\d{1,2})月(\d{1,2})[日号]/g, (_m, mo, d) => `${readInteger(mo)}月${readInteger(d)}日`);
  t = t.replace(/(\d{1,2})月/g, (_m, mo) => `${readInteger(mo)}月`);
  // Times: 8:05 → 八点零五分, 14:30:10 → 十四点三十分十秒, 9:00 → 九点整.
  t = t.replace(/(?<![\d.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d.])/g, (_m, h, mi, s) => {
    let out = `${readInteger(h).replace(/^二$/, '两')}点`;
    if (Number(mi) === 0 && !s) return `${out}整`;
    out += Number(mi) < 10 && Number(mi) > 0 ? `零${readInteger(mi)}分` : `${readInteger(mi)}分`;
    if (s) out += `${readInteger(s)}秒`;
    return out;
  });
  // Percentages and permille.
  t = t.replace(/(-?)(\d+(?:\.\d+)?)\s?%/g, (_m, sign, n) => `${sign ? '负' : ''}百分之${readNumber(n)}`);
  t = t.replace(/(-?\d+(?:\.\d+)?)\s?‰/g, (_m, n) => `千分之${readNumber(n)}`);
  // Money.
  t = t.replace(/[¥￥]\s?(\d+(?:\.\d+)?)/g, (_m, n) => `${readNumber(n)}元`);
  t = t.replace(/\$\s?(\d+(?:\.\d+)?)/g, (_m, n) => `${readNumber(n)}美元`);
  t = t.replace(/€\s?(\d+(?:\.\d+)?)/g, (_m, n) => `${readNumber(n)}欧元`);
  // Units after a number.
  t = t.replace(UNIT_RE, (_m, n, u) => `${readNumber(n)}${UNIT_MAP.get(u) ?? u}`);
  // Fractions and ranges.
  t = t.replace(/(\d+)\/(\d+)/g, (_m, a, b) => `${readInteger(b)}分之${readInteger(a)}`);
  t = t.replace(
    /(\d+(?:\.\d+)?)\s?[~～-]\s?(\d+(?:\.\d+)?)/g,
    (_m, a, b) => `${readNumber(a)}到${readNumber(b)}`,
  );
  // Arithmetic symbols between numbers.
  t = t
    .replace(/(\d)\s*\+\s*(?=\d)/g, '$1加')
    .replace(/(\d)\s*[×x*]\s*(?=\d)/g, '$1乘')
    .replace(/(\d)\s*÷\s*(?=\d)/g, '$1除以');
  t = t.replace(/\s*=\s*(?=\d)/g, '等于');
  // Long digit strings (phone numbers, codes) are read digit by digit; 2 before a measure word is 两.
  t = t.replace(/\d{7,}/g, (m) => readDigits(m, '零'));
  t = t.replace(/(?<![\d.])2(?=[个只本位件天次斤条张种块把辆台名岁周瓶杯碗双对层家项句])/g, '两');
  t = t.replace(/(?<!\d)(-?\d[\d,]*(?:\.\d+)?)/g, (m) =>
    /^-?\d{1,3}(,\d{3})+(\.\d+)?$|^-?\d+(\.\d+)?$/.test(m) ? readNumber(m) : m,
  );
  // Remaining symbols.
  t = t
    .replace(/&/g, '和')
    .replace(/@/g, ' at ')
    .replace(/#/g, '')
    .replace(/[*_~`]/g, '');
  return t;
}
