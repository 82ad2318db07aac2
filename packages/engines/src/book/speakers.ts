import type { AttributedText, BookCharacter, Gender, SpeechSegment } from './types.ts';

/**
 * Dialogue and who says it. Quotes are “…”, 「…」 (『…』 inside them stays part of the quote) and
 * straight "…" pairs. The speaker comes from the narration next to the quote: 张三笑着说：“…” or
 * “…”李四问道。 A pronoun (他/她) stands for the last named character of that gender; a quote-only
 * paragraph in a two-person exchange goes to the one who spoke two turns before.
 */

const QUOTE = /“([^”]*)”|「([^」]*)」|"([^"]*)"/gu;
const VERBS =
  '笑道|笑着说|冷笑道|怒道|喝道|叹道|骂道|哭道|问道|答道|回答道|回答|喊道|叫道|嚷道|低声道|轻声道|说道|大喊|大叫|追问|反问|说|道|问|喊|叫|嚷|答|叹|骂|笑';
const VERB_AT_END = new RegExp(`(?:${VERBS})[了着]?[：:，,]?\\s*$`, 'u');
const AFTER = new RegExp(`^\\s*[，,]?\\s*([^，,。！？“”「」"\\s]{1,12}?)(?:${VERBS})`, 'u');
const COLON_ONLY = /([\u4e00-\u9fa5]{2,4})\s*[：:]\s*$/u;
const NOT_NAME = new Set(
  '我 你 我们 你们 他们 她们 大家 有人 众人 对方 那人 这人 自己 一 又 也 就 便 却 只 然后 于是 接着 忽然 突然 随即 此时 这时 那时'.split(
    ' ',
  ),
);
// Connectives before the subject: 于是张三 → 张三.
const LEAD = /^(?:于是|然后|接着|这时|那时|此时|随即|忽然|突然|只见|只听|听见|便|又|也|就|却|才)+/u;
// What may follow the subject before the verb: 张三[笑着/冷冷地/对妈妈/点点头]说. Cut at the first.
const MARKERS =
  '一边 对着 对 向 跟 朝 冲 和 把 听了 听 看了 看着 望着 点点头 点头 摇摇头 摇头 抬起头 抬头 低下头 低头 回头 转身 站起 想了想 叹了 叹 皱 沉 怒 喝 笑着 笑 冷 淡淡 轻轻 低声 轻声 大声 小声 高声 连忙 急忙 赶紧 立刻 马上 忙 又 也 就 便 却 才 还 都 微微 不禁 忍不住 地 着 了'.split(
    ' ',
  );

/** The subject at the start of a clause: connectives dropped, cut at the first adverbial or verb. */
function subjectOf(clause: string, known: Set<string>): string | null {
  let n = (clause.split('的').pop() ?? clause).trim().replace(LEAD, '');
  if (/有人|众人|大家|人群/u.test(n)) return null;
  for (const name of known) if (n.startsWith(name)) return name;
  let cut = n.length;
  for (const m of MARKERS) {
    const i = n.indexOf(m);
    if (i > 0 && i < cut) cut = i;
  }
  n = n.slice(0, cut);
  if (!/^[\u4e00-\u9fa5]{1,4}$/u.test(n) || NOT_NAME.has(n)) return null;
  if (n.length === 1 && !PRONOUNS[n]) return null;
  return n;
}

const PRONOUNS: Record<string, Gender> = { 他: 'male', 她: 'female' };
const MALE_TITLES =
  /(先生|公子|少爷|老爷|大爷|大哥|哥哥|哥|弟弟|弟|叔|伯|爷爷|爷|父亲|父|爸爸|爸|兄|王爷|师兄|师弟|大人|和尚|老头|男孩|少年|皇帝|国王|王子|老汉|书生)$/u;
const FEMALE_TITLES =
  /(小姐|夫人|太太|女士|姑娘|姐姐|姐|妹妹|妹|娘子|娘|婆婆|婆|嫂子|嫂|姑姑|姑|姨|妈妈|妈|母亲|母|奶奶|师姐|师妹|公主|皇后|王后|丫头|丫鬟|女孩|少女|老太)$/u;
const FEMALE_CHARS = new Set([
  ...'娟婷丽芳娜静敏燕艳霞玲雪梅琳莉兰凤萍红月蓉媛瑶璐琪倩颖妍嫣薇婉娇姗妮娥嫦莺燕蕾菲娅晶芸秀珍翠英',
]);
const MALE_CHARS = new Set([...'强刚伟军勇杰峰斌涛辉龙虎雄鹏彪豪武磊浩坤健栋宏飞鑫毅威超亮庆松柏']);

interface Quote {
  start: number;
  end: number;
  text: string;
}

function findQuotes(p: string): Quote[] {
  const out: Quote[] = [];
  for (const m of p.matchAll(QUOTE)) {
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, text: m[1] ?? m[2] ?? m[3] ?? '' });
  }
  return out;
}

/** The speaker named in the narration before (same sentence) or after a quote, or a pronoun. */
function speakerNear(before: string, after: string, known: Set<string>): string | null {
  const sentence = before.split(/[。！？!?…]/u).pop() ?? '';
  const v = VERB_AT_END.exec(sentence);
  if (v) {
    const clauses = sentence.slice(0, v.index).split(/[，,]/u);
    // 张三笑着说： / 林黛玉听了，冷笑道： (the subject of the sentence's first clause).
    const n =
      subjectOf(clauses[clauses.length - 1], known) ??
      (clauses.length > 1 ? subjectOf(clauses[0], known) : null);
    if (n) return n;
  }
  const c = COLON_ONLY.exec(sentence);
  if (c) {
    const n = subjectOf(c[1], known);
    if (n) return n;
  }
  const clauseAfter = after.split(/[。！？!?“「"]/u)[0] ?? '';
  const a = AFTER.exec(clauseAfter);
  if (a) {
    const n = subjectOf(a[1], known);
    if (n) return n;
  }
  return null;
}

function guessGender(fullName: string, paragraphs: string[]): Gender {
  const name = fullName.replace(/儿$/u, '');
  let score = 0;
  if (MALE_TITLES.test(name)) score += 3;
  if (FEMALE_TITLES.test(name)) score -= 3;
  const last = name[name.length - 1];
  if (FEMALE_CHARS.has(last) || (name.length > 1 && FEMALE_CHARS.has(name[name.length - 2]))) score -= 1;
  if (MALE_CHARS.has(last)) score += 1;
  // 他/她 within the next few characters after the name in narration.
  for (const quoted of paragraphs) {
    const p = quoted.replace(QUOTE, '');
    let from = 0;
    for (;;) {
      const i = p.indexOf(name, from);
      if (i < 0) break;
      const window = p.slice(i + name.length, i + name.length + 24);
      const he = (window.match(/他(?!们)/g) ?? []).length;
      const she = (window.match(/她(?!们)/g) ?? []).length;
      score += Math.sign(he - she);
      from = i + name.length;
    }
  }
  return score > 0 ? 'male' : score < 0 ? 'female' : 'unknown';
}

export function attributeSpeakers(paragraphs: string[]): AttributedText {
  const result: AttributedText['paragraphs'] = [];
  const counts = new Map<string, number>();
  const genders = new Map<string, Gender>();
  // Recent quote speakers (for alternation) and the last named character of each gender (for 他/她).
  const turns: Array<string | null> = [];
  const lastOf: Partial<Record<Gender, string>> = {};

  const genderOf = (name: string): Gender => {
    let g = genders.get(name);
    if (!g) {
      g = guessGender(name, paragraphs);
      genders.set(name, g);
    }
    return g;
  };

  for (const p of paragraphs) {
    const quotes = findQuotes(p);
    const segments: SpeechSegment[] = [];
    let at = 0;
    const narrationOnly = p.replace(QUOTE, '').replace(/[\s，。！？、：；…—,.!?:;]/gu, '');
    for (const [k, q] of quotes.entries()) {
      const narr = p.slice(at, q.start);
      if (/[\p{L}\p{N}]/u.test(narr)) segments.push({ kind: 'narration', text: narr.trim(), speaker: null });
      const before = p.slice(0, q.start).replace(QUOTE, '');
      const after = p.slice(q.end, quotes[k + 1]?.start ?? p.length);
      let speaker = speakerNear(before, after, new Set(counts.keys()));
      const seg: SpeechSegment = { kind: 'quote', text: q.text, speaker: null };
      if (speaker && PRONOUNS[speaker]) {
        const g = PRONOUNS[speaker];
        speaker = lastOf[g] ?? null;
      }
      if (!speaker && quotes.length === 1 && !narrationOnly && turns.length >= 2) {
        // A bare quote in an exchange: the person who spoke two turns ago answers back.
        const [a, b] = turns.slice(-2);
        if (a && b && a !== b) speaker = a;
      }
      if (speaker) {
        seg.speaker = speaker;
        counts.set(speaker, (counts.get(speaker) ?? 0) + 1);
        const g = genderOf(speaker);
        if (g !== 'unknown') lastOf[g] = speaker;
      }
      if (k === quotes.length - 1 || quotes.length === 1) turns.push(seg.speaker);
      segments.push(seg);
      at = q.end;
    }
    const tail = p.slice(at);
    if (/[\p{L}\p{N}]/u.test(tail)) segments.push({ kind: 'narration', text: tail.trim(), speaker: null });
    // Named characters in narration also feed the pronoun memory (张三走了进来。他说：“…”).
    for (const name of counts.keys()) {
      if (p.includes(name)) {
        const g = genderOf(name);
        if (g !== 'unknown') lastOf[g] = name;
      }
    }
    result.push({ segments });
  }

  const characters: BookCharacter[] = [...counts.entries()]
    .map(([name, lines]) => ({ name, lines, gender: genderOf(name) }))
    .sort((a, b) => b.lines - a.lines || a.name.localeCompare(b.name, 'zh'));
  return { paragraphs: result, characters };
}
