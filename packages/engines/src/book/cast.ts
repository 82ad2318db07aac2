/**
 * The cast of a whole book: which of the speakers the attribution gave become roles. A role is a person
 * — a name, a title, a kinship term or a description of one; a speaker that is none of these (a verb or
 * a clause fragment the attribution took for a subject: 寻思, 及至, 句话) has its lines read by the
 * narrator. Rules, each applied to the whole text once every quote has a speaker:
 * - a single character other than 我 is no role: a surname (赵) is the titled name of the text that
 *   starts with it and speaks most (赵太爷), else nobody;
 * - a word that mostly follows another speaker's name in the narration (武松寻思) is what that one
 *   does, not someone;
 * - a speaker that starts like a clause fragment (及至, 直到, 稍微, 再筛) or is a number always before
 *   the same word (二十多 of 二十多岁) is none, unless it looks like a person: a surname before one or two
 *   characters, 阿/小/老 before a name, a title, a kinship term or a person noun (四婶, 七斤嫂, 老栓);
 *   a speaker with no such sign either way stays a role (闰土, 雨村: a short text says too little);
 * - a name said once in the whole book, before 曰/云 and a comma in the narration (孔子曰，“名不正则言不
 *   顺”。这原是…), is an authority the narrator cites, not a character (荀彧曰：“…” speaks);
 * - a name of four characters or more said once that differs by one character from a role of the same
 *   length (卫若婆子, a misprint of 卫老婆子) is that role;
 * - a role the narration puts before another's name twice or more (骆驼 of 骆驼祥子) is its nickname,
 *   when that one speaks ten times as much (two main characters a list joins, 凤姐宝玉, are two);
 * - a description that is another role plus 的人 (花白胡子的人, 花白胡子) is that role, and two
 *   descriptions joined by 的 in the narration (光头的矮子) are one person, when the phrase is a quarter
 *   of the rarer one's mentions or more (黛玉的丫头, once in a long book, is her maid).
 */

const SURNAME_START =
  /^[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤邢鲁柳车荀满糜庞甘祁管纪诸柴鲍雍焦冉晏墨庄屈左欧司公诸葛上官]/u;
/** Titles, kinship terms and person nouns a role may end with. */
const PERSON_END =
  /(?:嫂|婶|叔|伯|妈|娘|爹|爷|奶奶|姥姥|公子|先生|太太|老太|小姐|姑娘|夫人|少爷|老爷|大人|家的|哥|姐|弟|妹|儿|母亲|父亲|婆婆|婆子|老婆子|丫头|丫鬟|媳妇|尼姑|和尚|道士|秀才|举人|掌柜|伙计|老板|店主|店家|酒家|桩家|铺主|车夫|巡警|警察|医生|大夫|短工|长工|乞丐|大汉|汉子|老汉|老者|老人|老头|老头子|妇人|女人|男人|孩子|少年|后生|小伙子|矮子|胖子|瘦子|瞎子|光头|猎户|门子|地保|把总|知县|知府|县官|差人|公人|庄客|士兵|大兵|兵|客人|学生|主人|主人家|原告|被告|探子|庖人|牌头|店员|人物|母|的人|们)$/u;
const NAME_START = /^(?:阿|小|老)[\p{Script=Han}A-Za-zＡ-Ｚａ-ｚ]/u;
const KIN_END = /(?:母亲|父亲|儿子|女儿|妻子|丈夫|哥哥|姐姐|弟弟|妹妹|母|父|娘|爹|妈)$/u;
/** Starts of clause fragments, never a person: 及至, 直到, 至于, 稍微, 再筛, 自, 要, 心. */
const FRAGMENT_START =
  /^(?:及|直|至|稍|再|愈|越|更|很|最|已|曾|刚|竟|渐|忽|自|亲|句|心|要|欲|拉|这|那|只|便|就|又|也|却|但|而|所|因|当)/u;
/** A number starts a name that recurs before varied words (七斤说, 七斤嫂), not a count (二十多岁). */
const NUMBER_START = /^[一二三四五六七八九十两几]/u;
/** Person nouns of one character: 娘道, 兵喝道. */
const ONE_CHAR_PERSON = /^[娘妈爹母父兵官]$/u;

export interface CastLine {
  speaker: string | null;
}

/** How many times `part` (not empty) stands in `text`, without overlaps. */
export function occurrences(text: string, part: string): number {
  let n = 0;
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length)) n++;
  return n;
}

/** Whether a speaker looks like a person by its form alone. */
export function looksLikePerson(name: string): boolean {
  if (name === '我') return true;
  if (name.length < 2) return false;
  if (PERSON_END.test(name)) return !/^[及直至稍再自句]/u.test(name);
  if ((FRAGMENT_START.test(name) || NUMBER_START.test(name)) && !SURNAME_START.test(name)) return false;
  if (SURNAME_START.test(name) && name.length <= 3) return true;
  // 阿Q, 小D, 老栓, and a nickname before one (红鼻子老拱).
  return (NAME_START.test(name) && name.length <= 4) || /^[^的]{1,3}(?:阿|老|小)\p{Script=Han}$/u.test(name);
}

/** How often a word occurs in the narration, before how many different characters, and how often
 * right after one of the other names (of two to five characters). */
function mentions(word: string, narration: string, others: Set<string>) {
  let total = 0;
  let after = 0;
  const next = new Set<string>();
  for (let i = narration.indexOf(word); i >= 0; i = narration.indexOf(word, i + word.length)) {
    total++;
    next.add(narration[i + word.length] ?? '');
    for (let len = 2; len <= 5 && len <= i; len++)
      if (others.has(narration.slice(i - len, i))) {
        after++;
        break;
      }
  }
  return { total, after, next: next.size };
}

/** How many clauses of the narration start with each character. */
function clauseStarts(narration: string): Map<string, number> {
  const starts = new Map<string, number>();
  for (const c of narration.split(/[，,。！？!?；;：:\n]/u)) {
    const ch = c.trim()[0];
    if (ch) starts.set(ch, (starts.get(ch) ?? 0) + 1);
  }
  return starts;
}

/**
 * The role each speaker becomes (a name, or null for the narrator): `lines` counts each speaker's
 * quotes, `narration` is the book's text without its quotes.
 */
export function castRoles(lines: Map<string, number>, narration: string): Map<string, string | null> {
  const speakers = [...lines.keys()];
  const role = new Map<string, string | null>();
  let starts: Map<string, number> | undefined;
  for (const name of speakers) {
    const n = lines.get(name) ?? 0;
    if (name === '我') {
      role.set(name, name);
      continue;
    }
    if (name.length === 1) {
      // 赵 → 赵太爷: the titled name of the text starting with that surname that speaks most.
      const titled = speakers
        .filter((s) => s.length > 1 && s.startsWith(name) && PERSON_END.test(s))
        .sort((a, b) => (lines.get(b) ?? 0) - (lines.get(a) ?? 0))[0];
      if (SURNAME_START.test(name)) role.set(name, titled ?? null);
      else if (ONE_CHAR_PERSON.test(name)) role.set(name, name);
      else {
        // 羿, 禹: a one-character name starts many clauses of the narration; 要, 心, 自 are fragments.
        if (!starts) starts = clauseStarts(narration);
        role.set(name, !FRAGMENT_START.test(name) && (starts.get(name) ?? 0) >= 5 ? name : null);
      }
      continue;
    }
    // Other names of two characters or more, not those that make a longer name with this one (赵 秀才).
    const others = new Set(
      speakers.filter(
        (s) => s.length > 1 && s !== name && s !== '我' && !name.startsWith(s) && !lines.has(s + name),
      ),
    );
    const m = mentions(name, narration, others);
    if (m.total >= 2 && m.after * 2 >= m.total && !looksLikePerson(name)) {
      role.set(name, null); // 武松寻思道: what someone does
      continue;
    }
    // 孔子曰，“…”: said once in the book, citing.
    if (m.total === 1 && new RegExp(`${name}(?:曰|云|有言)[，,]`, 'u').test(narration) && n <= 3) {
      role.set(name, null);
      continue;
    }
    // 及至, 句话, 稍微: a fragment by its form; 二十多 (岁): a number always before the same word.
    const fragment =
      !looksLikePerson(name) &&
      (FRAGMENT_START.test(name) || (NUMBER_START.test(name) && m.total >= 2 && m.next === 1));
    if (fragment) {
      role.set(name, null);
      continue;
    }
    role.set(name, name);
  }
  // 卫若婆子 → 卫老婆子: a misprint said once, one character off a role named more often.
  for (const [name, r] of role) {
    if (r !== name || name.length < 4 || mentions(name, narration, new Set()).total > 1) continue;
    const near = [...role.values()].find(
      (o) =>
        o &&
        o !== name &&
        o.length === name.length &&
        [...o].filter((c, i) => c !== name[i]).length === 1 &&
        mentions(o, narration, new Set()).total > 1,
    );
    if (near) role.set(name, near);
  }
  // 骆驼 of 骆驼祥子: a role the narration puts before another one twice or more, that one said far more
  // often alone, is its nickname (here, not in who a pronoun stands for: 骆驼 is also a camel).
  const names = new Set([...role.values()].filter((n): n is string => !!n && n.length >= 2));
  for (const [nick, r] of role) {
    if (r !== nick || nick.length < 2) continue;
    // The roles right after each time the narration says it (looked up there, not counted per pair).
    const next = new Map<string, number>();
    for (let i = narration.indexOf(nick); i >= 0; i = narration.indexOf(nick, i + nick.length))
      for (let len = 2; len <= 5; len++) {
        const n = narration.slice(i + nick.length, i + nick.length + len);
        if (names.has(n) && !n.startsWith(nick)) next.set(n, (next.get(n) ?? 0) + 1);
      }
    // Both far apart in how often they speak: two main characters a list joins (凤姐宝玉, 宝玉秦钟) each
    // speak, however long the book that makes twice likely.
    const named = [...next]
      .filter(
        ([n, times]) =>
          times >= 2 &&
          occurrences(narration, n) >= 10 * times &&
          (lines.get(n) ?? 0) >= 10 * (lines.get(nick) ?? 0),
      )
      .map(([n]) => n);
    if (named.length === 1) for (const [k, v] of role) if (v === nick) role.set(k, named[0]);
  }
  // 花白胡子的人, 光头的小伙子 → 花白胡子, 光头: a role and a plain person noun after it.
  for (const [name, r] of role) {
    const m = /^(.+)的(?:人|小伙子|汉子|男人|女人|老头|老者|后生|少年)$/u.exec(name);
    if (r && m && role.get(m[1]) === m[1]) role.set(name, m[1]);
  }
  // 一个年轻光头的矮子: two descriptions of one phrase of the narration are one person, the one with
  // more lines (not 阿Q的母亲: a name before 的 owns, and kin are someone else).
  const description = (d: string) =>
    d !== '我' && !SURNAME_START.test(d) && !NAME_START.test(d) && !KIN_END.test(d);
  const descriptions = [...role].filter(([d, r]) => r === d && description(d)).map(([d]) => d);
  for (const a of descriptions)
    for (let i = narration.indexOf(`${a}的`); i >= 0; i = narration.indexOf(`${a}的`, i + 1)) {
      const at = i + a.length + 1;
      const b = descriptions.find((d) => d !== a && narration.startsWith(d, at));
      if (!b || role.get(a) !== a || role.get(b) !== b) continue;
      // The phrase names the rarer of the two a good part of the time (光头的矮子: 3 of 4 times), not
      // once in a long book (黛玉的丫头: her maid, one of hundreds of mentions of either).
      const joined = occurrences(narration, `${a}的${b}`);
      if (joined * 4 < Math.min(occurrences(narration, a), occurrences(narration, b))) continue;
      const [keep, drop] = (lines.get(a) ?? 0) >= (lines.get(b) ?? 0) ? [a, b] : [b, a];
      for (const [k, v] of role) if (v === drop) role.set(k, keep);
    }
  return role;
}
