import { describe, expect, it } from 'vitest';
import { CAST_BOOKS, castParagraphs } from './cast.fixture.ts';
import { measureCast } from './cast.measure.ts';
import { castRoles, looksLikePerson } from './cast.ts';
import { SPEAKERS_TUNING } from './speakers.fixture.ts';
import { SPEAKERS_TUNING_MORE } from './speakers.more.fixture.ts';
import { SPEAKERS_TUNING_THIRD } from './speakers.third.fixture.ts';
import { attributeSpeakers, quoteSpeakers } from './speakers.ts';

const roles = (lines: Record<string, number>, narration: string) =>
  Object.fromEntries(castRoles(new Map(Object.entries(lines)), narration));

describe('castRoles: only people become roles', () => {
  it('a single character is no role: a surname is the titled name that speaks most, 要 is nobody', () => {
    const narration = '赵太爷很生气。赵秀才也在。赵太太慌忙说。要是阿Q来了。';
    expect(roles({ 赵: 4, 赵太爷: 12, 赵秀才: 3, 要: 3, 阿Q: 20 }, narration)).toMatchObject({
      赵: '赵太爷',
      要: null,
      阿Q: '阿Q',
    });
    // A surname with no titled speaker in the text: nobody.
    expect(roles({ 钱: 2 }, '钱府的人来了。')).toEqual({ 钱: null });
  });

  it('keeps a one-character name that starts many clauses (羿) and one-character person nouns (娘)', () => {
    const narration = '羿回到家。羿下了马，羿想，羿走进门，羿叹气，羿坐下。娘哭了。';
    expect(roles({ 羿: 6, 娘: 1 }, narration)).toEqual({ 羿: '羿', 娘: '娘' });
  });

  it('a word that mostly follows another speaker’s name is what that one does (武松寻思)', () => {
    const narration = '武松寻思，武松寻思了一回，便走。武松在冈上。';
    expect(roles({ 武松: 30, 寻思: 5 }, narration)).toEqual({ 武松: '武松', 寻思: null });
  });

  it('clause fragments with few lines are read by the narrator (及至, 句话, 稍微, 二十多)', () => {
    const narration = '及至人们问到。这句话一出。稍微棱棱着点眼。坐着一个二十多岁的人。二十多岁的人说。';
    expect(roles({ 及至: 1, 句话: 3, 稍微: 1, 二十多: 1 }, narration)).toEqual({
      及至: null,
      句话: null,
      稍微: null,
      二十多: null,
    });
  });

  it('a speaker with no sign either way stays a role (闰土 said once, 七斤 before varied words)', () => {
    const narration = '闰土来了。七斤回家了。七斤嫂说。七斤坐下。';
    expect(roles({ 闰土: 1, 七斤: 2 }, narration)).toEqual({ 闰土: '闰土', 七斤: '七斤' });
  });

  it('a name said once before 曰 and a comma in the narration is a cited authority (孔子曰，“…”)', () => {
    expect(roles({ 孔子: 3 }, '第一是文章的名目。孔子曰，。这原是应该极注意的。')).toEqual({ 孔子: null });
    // 荀彧曰：“…” is someone speaking.
    expect(roles({ 荀彧: 1 }, '操怒，欲斩二人。荀彧曰：')).toEqual({ 荀彧: '荀彧' });
  });

  it('merges 花白胡子的人 into 花白胡子 and a once-said misprint into the role it differs from by one character', () => {
    const narration =
      '花白胡子的人说。花白胡子笑了。花白胡子走了。卫老婆子来了。卫老婆子说。卫若婆子高兴的说。';
    expect(roles({ 花白胡子: 4, 花白胡子的人: 2, 卫老婆子: 1, 卫若婆子: 6 }, narration)).toEqual({
      花白胡子: '花白胡子',
      花白胡子的人: '花白胡子',
      卫老婆子: '卫老婆子',
      卫若婆子: '卫老婆子',
    });
  });

  it('two descriptions joined by 的 in the narration are one person (光头的矮子); a name’s kin is not', () => {
    const narration = '一个年轻光头的矮子答应了。光头的小伙子打定了主意。阿Q的母亲来了。阿Q走了。';
    expect(roles({ 矮子: 2, 光头: 1, 光头的小伙子: 1, 阿Q: 5, 母亲: 1 }, narration)).toEqual({
      矮子: '矮子',
      光头: '矮子',
      光头的小伙子: '矮子',
      阿Q: '阿Q',
      母亲: '母亲',
    });
  });

  it('a role the narration puts before another’s name twice is its nickname (骆驼 of 骆驼祥子)', () => {
    const narration = `自从骆驼祥子传开了以后，提到骆驼祥子的时候，${'祥子走了。'.repeat(20)}骆驼站着。`;
    expect(roles({ 祥子: 30, 骆驼: 1 }, narration)).toEqual({ 祥子: '祥子', 骆驼: '祥子' });
    // Said once before the name, a word is no nickname.
    expect(roles({ 祥子: 30, 骆驼: 1 }, `骆驼祥子来了。${'祥子走了。'.repeat(20)}`)).toMatchObject({
      骆驼: '骆驼',
    });
  });

  it('two characters who both speak much are no nickname of each other, however often a list joins them', () => {
    // 凤姐宝玉, 宝玉秦钟: a long book lists main characters together twice easily.
    const narration = `${'秦钟走了。'.repeat(20)}带着宝玉秦钟来了。宝玉秦钟在外间。凤姐宝玉躺着。众人围着凤姐宝玉。${'宝玉笑了。'.repeat(200)}`;
    expect(roles({ 宝玉: 60, 凤姐: 30, 秦钟: 5 }, narration)).toEqual({
      宝玉: '宝玉',
      凤姐: '凤姐',
      秦钟: '秦钟',
    });
  });

  it('two words joined by 的 once among many mentions of each are two people (黛玉的丫头)', () => {
    const narration = `黛玉的丫头走来。${'黛玉笑了。'.repeat(10)}${'丫头来了。'.repeat(10)}`;
    expect(roles({ 黛玉: 20, 丫头: 6 }, narration)).toEqual({ 黛玉: '黛玉', 丫头: '丫头' });
  });

  it('tells people by their form: surnames, 阿/小/老, titles, person nouns', () => {
    for (const name of ['我', '王胡', '阿Q', '小D', '老栓', '四婶', '柳妈', '猎户', '喝酒的人', '红鼻子老拱'])
      expect(looksLikePerson(name), name).toBe(true);
    for (const name of ['要', '直到', '至于', '拉到', '再筛', '亲商议', '二十多', '愈加', '越发'])
      expect(looksLikePerson(name), name).toBe(false);
  });
});

describe('attributeSpeakers: the cast of a book', () => {
  it('reads a cited sage’s words with the narrator and counts lines of the roles that remain', () => {
    const { paragraphs, characters } = attributeSpeakers([
      '第一是文章的名目。孔子曰，“名不正则言不顺”。这原是应该极注意的。',
      '阿Q很喜欢。阿Q说：“我们先前——比你阔的多啦！”',
      '阿Q又说：“你算是什么东西！”',
    ]);
    expect(characters.map((c) => [c.name, c.lines])).toEqual([['阿Q', 2]]);
    const speakers = paragraphs.flatMap((p) =>
      p.segments.filter((s) => s.kind === 'quote').map((s) => s.speaker),
    );
    expect(speakers).not.toContain('孔子');
  });

  it('casts 《祝福》 with 祥林嫂 once: “她…是一个乞丐” describes her, and her talk with 我 goes on past 我自己', () => {
    const book = CAST_BOOKS.find((b) => b.file === 'zhufu.txt');
    if (!book) throw new Error('fixture missing');
    const m = measureCast(book);
    expect(m.roles.map((r) => r.name)).not.toContain('乞丐');
    expect(m.splitErrors).toBe(0);
    // “那么，也就有地狱了？” and “那么，死掉的一家的人，都能见面的？” answer 我.
    const lines = attributeSpeakers(castParagraphs(book))
      .paragraphs.flatMap((p) => p.segments)
      .filter((s) => s.kind === 'quote' && s.text.startsWith('那么，'));
    expect(lines.map((s) => s.speaker)).toEqual(['祥林嫂', '祥林嫂']);
  });

  it('keeps the rules’ speakers of the 红楼梦 passages, alone and after a text listing its characters together', () => {
    const honglou = [...SPEAKERS_TUNING, ...SPEAKERS_TUNING_MORE, ...SPEAKERS_TUNING_THIRD].filter((p) =>
      p.source.includes('《红楼梦》'),
    );
    // What a long book holds before them: 秦钟 speaking, lists of names, 黛玉的丫头.
    const context = [
      ...Array.from({ length: 20 }, () => '秦钟笑道：“这里好。”'),
      '凤姐带着宝玉秦钟往庵里来。',
      '宝玉秦钟在外间。',
      '凤姐宝玉躺在床上。',
      '众人围着凤姐宝玉。',
      '黛玉的丫头走来。',
    ];
    const passages = honglou.flatMap((p) => p.paragraphs);
    for (const book of [passages, [...context, ...passages]]) {
      const rules = quoteSpeakers(book).map((q) => q.filter((s) => s.speech).map((s) => s.speaker));
      const cast = attributeSpeakers(book).paragraphs.map((p) =>
        p.segments.filter((s) => s.kind === 'quote').map((s) => s.speaker),
      );
      expect(cast).toEqual(rules);
    }
  });

  it('casts 《阿Q正传》 with 阿Q and no fragments (要, 赵) or cited sages (孔子)', () => {
    const book = CAST_BOOKS.find((b) => b.file === 'aq.txt');
    if (!book) throw new Error('fixture missing');
    const m = measureCast(book);
    const names = m.roles.map((r) => r.name.normalize('NFKC'));
    expect(names).toContain('阿Q');
    expect(names).toContain('赵太爷');
    for (const bad of ['要', '赵', '孔子']) expect(names).not.toContain(bad);
  });
});
