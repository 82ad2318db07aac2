import { readDigits, readInteger } from './numbers.ts';

/*
 * Text normalisation for Chinese voices: a reading layer, never a rewrite of the user's text. It
 * finds numbers, dates, times, money, units and Latin words and says how each is spoken; every
 * engine gets the spoken text, the readings view shows each span, subtitles keep the written text.
 */

export type SpanKind =
  | 'date'
  | 'year'
  | 'time'
  | 'phone'
  | 'percent'
  | 'money'
  | 'fraction'
  | 'range'
  | 'unit'
  | 'ordinal'
  | 'number'
  | 'digits'
  | 'symbol'
  | 'word';

/** A piece of the written text and how it is read. */
export interface SpokenSpan {
  kind: SpanKind;
  /** UTF-16 offsets into the written text. */
  start: number;
  end: number;
  text: string;
  spoken: string;
}

export interface NormalizedText {
  spoken: string;
  spans: SpokenSpan[];
  /** A range of the spoken text → the written range it comes from (a span is never cut in two). */
  sourceRange(start: number, end: number): { start: number; end: number };
}

/**
 * Latin words and how a Chinese voice says them. Letters separated by spaces are spelled; anything
 * else is read as a word (lower case, so no engine spells a capitalised word: RED → red). AI is spelled (A-I): that is how it is said in Chinese speech (人工智能 is
 * the word, "AI" the letters) — a user who wants it read otherwise adds it to the dictionary.
 */
export const LATIN_LEXICON: Readonly<Record<string, string>> = {
  AI: 'A I',
  iPhone: 'iPhone',
  iPad: 'iPad',
  iOS: 'i O S',
  macOS: 'mac O S',
  WiFi: 'wifi',
  'Wi-Fi': 'wifi',
  NASA: 'nasa',
  NATO: 'nato',
  RED: 'red',
  OPEC: 'opec',
  ChatGPT: 'chat G P T',
  OpenAI: 'open A I',
  DeepSeek: 'deep seek',
  YouTube: 'youtube',
  GitHub: 'github',
  TikTok: 'tiktok',
  WeChat: 'wechat',
  PowerPoint: 'powerpoint',
  JavaScript: 'javascript',
  TypeScript: 'typescript',
  PayPal: 'paypal',
  LinkedIn: 'linkedin',
  eBay: 'ebay',
  OK: 'O K',
  vs: 'versus',
};

/** Lowercase tails that are words of their own, so "REDtech" splits as RED + tech. */
const TAIL_WORDS = new Set([
  'tech',
  'web',
  'app',
  'apps',
  'phone',
  'pad',
  'book',
  'pro',
  'max',
  'mini',
  'lab',
  'labs',
  'hub',
  'net',
  'cloud',
  'data',
  'link',
  'box',
  'play',
  'store',
  'soft',
  'ware',
]);

const MEASURE_WORDS = '个只本位件天次斤条张种块把辆台名岁周瓶杯碗双对层家项句款部篇首棵份间座枚颗道场';

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
  ['TB', 'T B'],
  ['GB', 'G B'],
  ['MB', 'M B'],
  ['KB', 'K B'],
  ['GHz', 'G赫兹'],
  ['MHz', 'M赫兹'],
  ['Hz', '赫兹'],
  ['kWh', '千瓦时'],
  ['kW', '千瓦'],
  ['W', '瓦'],
  ['mAh', '毫安时'],
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
  ['ms', '毫秒'],
  ['t', '吨'],
  ['K', 'K'],
  ['k', '千'],
];
const UNIT_MAP = new Map(UNITS);
const escapeRe = (s: string) => s.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&');
const UNIT_ALT = UNITS.map(([u]) => escapeRe(u))
  .sort((a, b) => b.length - a.length)
  .join('|');

const CURRENCY: Record<string, string> = { '¥': '元', '￥': '元', $: '美元', '€': '欧元', '£': '英镑' };
const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const DASH = String.raw`\s?[~～\-–—至]\s?`;

/** A quantity: 1,234.5 → 一千二百三十四点五; 0.05 → 零点零五. */
function readNumber(n: string): string {
  const body = n.replace(/,/g, '');
  const [int, frac] = body.split('.');
  return readInteger(int || '0') + (frac ? `点${readDigits(frac, '零')}` : '');
}

/** Phone numbers: digit by digit, 1 as 幺 (as numbers are said on the phone), groups apart. */
const readPhone = (s: string) =>
  s
    .split(/[-\s]+/)
    .map((g) => readDigits(g.replace(/^\+/, ''), '零').replaceAll('一', '幺'))
    .join(' ');

const spell = (w: string) => [...w].join(' ');

interface Rule {
  kind: SpanKind;
  re: RegExp;
  read(m: RegExpExecArray, before: string): string | null;
}

const rule = (kind: SpanKind, source: string, read: Rule['read']): Rule => ({
  kind,
  re: new RegExp(source, 'y'),
  read,
});

const validDate = (mo: string, d?: string) =>
  Number(mo) >= 1 && Number(mo) <= 12 && (d === undefined || (Number(d) >= 1 && Number(d) <= 31));

const RULES: Rule[] = [
  rule('date', String.raw`(\d{4})\s?[-/.年]\s?(\d{1,2})\s?[-/.月]\s?(\d{1,2})(?![\d.])\s?[日号]?`, (m) =>
    validDate(m[2], m[3]) ? `${readDigits(m[1])}年${readInteger(m[2])}月${readInteger(m[3])}日` : null,
  ),
  rule('year', String.raw`(\d{4})(?=\s?年(?!代))`, (m) => readDigits(m[1])),
  rule('year', String.raw`(\d{2})(?=\s?年代)`, (m) => readInteger(m[1])),
  rule('time', String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d.:])`, (m) => {
    if (Number(m[1]) > 24 || Number(m[2]) > 59) return null;
    const hour = `${readInteger(m[1]).replace(/^二$/, '两')}点`;
    if (Number(m[2]) === 0 && !m[3]) return `${hour}整`;
    const minute =
      Number(m[2]) < 10 && Number(m[2]) > 0 ? `零${readInteger(m[2])}分` : `${readInteger(m[2])}分`;
    return hour + minute + (m[3] ? `${readInteger(m[3])}秒` : '');
  }),
  rule('phone', String.raw`(?:\+86[-\s]?)?1[3-9]\d(?:[-\s]?\d{4}){2}(?!\d)`, (m) => readPhone(m[0])),
  rule('phone', String.raw`(?:0\d{2,3}-\d{7,8}|400-?\d{3}-?\d{4}|\d{3,4}-\d{3,4}-\d{4})(?!\d)`, (m) =>
    readPhone(m[0]),
  ),
  rule(
    'percent',
    `(${NUM})%?${DASH}(${NUM})%`,
    (m) => `百分之${readNumber(m[1])}到百分之${readNumber(m[2])}`,
  ),
  rule(
    'percent',
    String.raw`([-+−]?)(${NUM})\s?%`,
    (m) => `${m[1] && m[1] !== '+' ? '负' : ''}百分之${readNumber(m[2])}`,
  ),
  rule('percent', String.raw`(${NUM})\s?‰`, (m) => `千分之${readNumber(m[1])}`),
  rule(
    'money',
    String.raw`(US)?([¥￥$€£])\s?(${NUM})\s?([万亿]?)`,
    (m) => `${readNumber(m[3])}${m[4]}${CURRENCY[m[2]]}`,
  ),
  rule('fraction', String.raw`(\d+)/(\d+)(?![\d/])`, (m) =>
    Number(m[2]) === 0 ? null : `${readInteger(m[2])}分之${readInteger(m[1])}`,
  ),
  // A span of years (2024-2025赛季) is said as years.
  rule('range', String.raw`((?:19|20)\d{2})${DASH}((?:19|20)\d{2})(?!\d)`, (m) =>
    Number(m[2]) > Number(m[1]) ? `${readDigits(m[1])}到${readDigits(m[2])}` : null,
  ),
  rule('range', String.raw`(${NUM})${DASH}(${NUM})(?:\s?(${UNIT_ALT})(?![A-Za-z]))?`, (m) => {
    const unit = m[3] ? (UNIT_MAP.get(m[3]) ?? m[3]) : '';
    return `${readNumber(m[1])}到${readNumber(m[2])}${unit}`;
  }),
  rule('unit', String.raw`([-−](?=\d))?(${NUM})\s?(${UNIT_ALT})(?![A-Za-z])`, (m, before) => {
    const unit = UNIT_MAP.get(m[3])!;
    // Below zero is 零下 for temperatures, 负 for other quantities.
    const below = m[1] && !/[A-Za-z\d]\s?$/.test(before) ? (/度$/.test(unit) ? '零下' : '负') : '';
    return `${below}${readNumber(m[2])}${unit}`;
  }),
  rule('ordinal', String.raw`第\s?(\d+)`, (m) => `第${readInteger(m[1])}`),
  rule('number', String.raw`([-−](?=\d))?(${NUM})`, (m, before) => {
    const n = m[2];
    const sign = m[1] && !/[A-Za-z\d]\s?$/.test(before) ? '负' : '';
    // Model numbers after a Latin name are said digit by digit (RTX 4090), short ones as numbers (iPhone 15).
    if (/^\d{3,}$/.test(n) && /[A-Za-z][\s-]?$/.test(before)) return readDigits(n, '零');
    // Long digit strings without separators are codes (order numbers, IDs).
    if (/^\d{7,}$/.test(n)) return readDigits(n, '零');
    if (n === '2' && !sign) return null;
    return sign + readNumber(n);
  }),
  rule(
    'symbol',
    String.raw`(?<=\d\s?)[+×÷=](?=\s?\d)`,
    (m) => ({ '+': '加', '×': '乘', '÷': '除以', '=': '等于' })[m[0]]!,
  ),
  rule('symbol', String.raw`(?<=[A-Za-z]\s?)&(?=\s?[A-Za-z])`, () => '和'),
  // 10万+ (ten thousand and more) is said 十万加.
  rule('symbol', String.raw`(?<=[\d万亿千百]\s?)\+(?!\s?\d)`, () => '加'),
];

// A lone 2 before a measure word is 两 (两个, 两本); elsewhere 二.
const TWO = new RegExp(String.raw`2(?=\s?[${MEASURE_WORDS}])`, 'y');
const LATIN = /[A-Za-z]+(?:[-'’][A-Za-z]+)*/y;

/** Full-width digits, letters and signs read as their half-width forms (same length, same offsets). */
function toHalfWidth(text: string): string {
  return text.replace(/[\uff01-\uff5e]/g, (c) =>
    /[０-９Ａ-Ｚａ-ｚ％＋－＝．，：／]/.test(c) && !(c === '，' || c === '：')
      ? String.fromCharCode(c.charCodeAt(0) - 0xfee0)
      : c,
  );
}

/** Splits a Latin token into its words: WebGPU → Web GPU, REDtech → RED tech, iPhone stays whole. */
export function latinParts(word: string): string[] {
  const parts: string[] = [];
  const re = /[A-Z]+(?=[A-Z][a-z]|\b|[^A-Za-z]|$)|[A-Z]?[a-z]+|[A-Z]+|[a-z]+/g;
  for (const m of word.matchAll(re)) parts.push(m[0]);
  // A capital run followed by a lowercase run: the capitals stay together when the tail is a word.
  for (let i = 0; i + 1 < parts.length; i++) {
    const [a, b] = [parts[i], parts[i + 1]];
    if (/^[A-Z]+$/.test(a) && /^[A-Z][a-z]+$/.test(b) && TAIL_WORDS.has(b.slice(1))) {
      parts.splice(i, 2, a + b[0], b.slice(1));
    }
  }
  // A lone lowercase letter before a capitalised word is a prefix (iPhone, eBay, xLabs).
  for (let i = 0; i + 1 < parts.length; i++) {
    if (/^[a-z]$/.test(parts[i]) && /^[A-Z][a-z]/.test(parts[i + 1]))
      parts.splice(i, 2, parts[i] + parts[i + 1]);
  }
  return parts;
}

function lookup(word: string, words: ReadonlyMap<string, string>): string | undefined {
  return words.get(word) ?? words.get(word.toLowerCase());
}

/** How a Latin token is said: a known word, spelled capitals, or a word. */
function readLatin(token: string, words: ReadonlyMap<string, string>): string {
  const known = lookup(token, words);
  if (known !== undefined) return known;
  return latinParts(token.replace(/['’]/g, ''))
    .map((p) => lookup(p, words) ?? (/^[A-Z]{2,6}$/.test(p) || p.length === 1 ? spell(p) : p))
    .join(' ');
}

const lexiconOf = (extra?: Readonly<Record<string, string>>) => {
  const map = new Map<string, string>();
  for (const [k, v] of Object.entries(LATIN_LEXICON)) {
    map.set(k, v);
    if (!map.has(k.toLowerCase()) && k !== k.toUpperCase()) map.set(k.toLowerCase(), v);
  }
  for (const [k, v] of Object.entries(extra ?? {})) if (/^[A-Za-z][A-Za-z'’-]*$/.test(k)) map.set(k, v);
  return map;
};

export interface NormalizeOptions {
  /**
   * The user's words for Latin spellings (e.g. `{ REDtech: 'red tech', AI: 'ai' }`): what is said,
   * letters separated by spaces spelled. Entries that are not Latin words are ignored here.
   */
  words?: Readonly<Record<string, string>>;
}

/**
 * Reads written Chinese text the way a Chinese voice should say it. Every rule works on a span of
 * the text; the spans and the mapping back let timings and the readings view point at what was written.
 */
export function normalizeText(text: string, options: NormalizeOptions = {}): NormalizedText {
  const half = toHalfWidth(text);
  const words = lexiconOf(options.words);
  const spans: SpokenSpan[] = [];
  let i = 0;
  const isDigit = (k: number) => /\d/.test(half[k] ?? '');
  const isLetter = (k: number) => /[A-Za-z]/.test(half[k] ?? '');
  while (i < half.length) {
    let hit: SpokenSpan | undefined;
    const startsNumber = !isDigit(i - 1) && !(half[i - 1] === '.' && isDigit(i - 2));
    if ((/[\d第$¥￥€£U−-]/.test(half[i]) && startsNumber) || /[+×÷=&]/.test(half[i])) {
      for (const r of RULES) {
        r.re.lastIndex = i;
        const m = r.re.exec(half);
        if (!m?.[0]) continue;
        const spoken = r.read(m, half.slice(Math.max(0, i - 8), i));
        if (spoken === null) continue;
        hit = { kind: r.kind, start: i, end: i + m[0].length, text: text.slice(i, i + m[0].length), spoken };
        break;
      }
      TWO.lastIndex = i;
      if (!hit && TWO.test(half)) hit = { kind: 'number', start: i, end: i + 1, text: text[i], spoken: '两' };
      if (!hit && half[i] === '2')
        hit = { kind: 'number', start: i, end: i + 1, text: text[i], spoken: '二' };
    }
    if (!hit && isLetter(i) && !isLetter(i - 1)) {
      LATIN.lastIndex = i;
      const m = LATIN.exec(half);
      if (m) {
        const spoken = readLatin(m[0], words);
        hit = { kind: 'word', start: i, end: i + m[0].length, text: text.slice(i, i + m[0].length), spoken };
      }
    }
    if (hit) {
      spans.push(hit);
      i = hit.end;
    } else i++;
  }
  return withSpans(text, spans);
}

function withSpans(text: string, spans: SpokenSpan[]): NormalizedText {
  // Pieces of the spoken text with the written range each comes from.
  const map: Array<{ from: number; to: number; start: number; end: number; whole: boolean }> = [];
  let spoken = '';
  let at = 0;
  const plain = (end: number) => {
    if (end <= at) return;
    map.push({ from: spoken.length, to: spoken.length + end - at, start: at, end, whole: false });
    spoken += text.slice(at, end);
  };
  for (const s of spans) {
    plain(s.start);
    // Latin readings next to hanzi get spaces so engines see separate words.
    const pad = s.kind === 'word' || /[A-Za-z]/.test(s.spoken);
    const said = pad ? ` ${s.spoken} ` : s.spoken;
    map.push({
      from: spoken.length,
      to: spoken.length + said.length,
      start: s.start,
      end: s.end,
      whole: true,
    });
    spoken += said;
    at = s.end;
  }
  plain(text.length);
  const find = (offset: number) => map.find((p) => offset >= p.from && offset < p.to) ?? map.at(-1);
  return {
    spoken,
    spans,
    sourceRange(start, end) {
      const a = find(start);
      const b = find(Math.max(start, end - 1));
      if (!a || !b) return { start: 0, end: 0 };
      return {
        start: a.whole ? a.start : a.start + (start - a.from),
        end: b.whole ? b.end : Math.min(b.end, b.start + (end - b.from)),
      };
    },
  };
}

/** Whether a request's text is read by the Chinese rules: a Chinese language, or none given and hanzi present. */
export function readsAsChinese(language: string | undefined, text: string): boolean {
  if (language) return /^(zh|cmn|yue)\b/i.test(language);
  return /\p{Script=Han}/u.test(text);
}

/** What an engine is handed for a text in a language: the normalised reading for Chinese, else the text. */
export function spokenText(text: string, language?: string, options: NormalizeOptions = {}): string {
  return readsAsChinese(language, text) ? normalizeText(text, options).spoken : text;
}
