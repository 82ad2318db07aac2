import { describe, expect, it } from 'vitest';
import { latinParts, normalizeText, readsAsChinese, spokenText } from './normalize.ts';

const said = (text: string, words?: Record<string, string>) =>
  normalizeText(text, { words }).spoken.replace(/\s+/g, ' ').trim();

describe('normalizeText: one test per rule', () => {
  it.each([
    ['cardinal', '共有1234人', '共有一千二百三十四人'],
    ['cardinal with separators', '售出1,234,567台', '售出一百二十三万四千五百六十七台'],
    ['2 before a measure word is 两, elsewhere 二', '买了2个，第2名，12个', '买了两个，第二名，十二个'],
    ['ordinal', '第10章', '第十章'],
    ['year, digit by digit', '2024年发布', '二〇二四年发布'],
    ['full date', '2024-03-05上线', '二〇二四年三月五日上线'],
    ['date with 年月日', '2024年3月5日', '二〇二四年三月五日'],
    ['time', '8:05出发，9:00开会，14:30:10结束', '八点零五分出发，九点整开会，十四点三十分十秒结束'],
    ['mobile phone, 1 as 幺', '电话13812345678', '电话幺三八 幺二三四 五六七八'.replace(/ /g, '')],
    ['landline with area code', '拨打010-12345678', '拨打零幺零 幺二三四五六七八'],
    ['decimal', '增长3.75倍', '增长三点七五倍'],
    ['negative', '气温-5度', '气温负五度'],
    ['percent', '占比12.5%', '占比百分之十二点五'],
    ['percent range', '提升10%-20%', '提升百分之十到百分之二十'],
    ['fraction', '1/3的人', '三分之一的人'],
    ['range', '需要3-5天', '需要三到五天'],
    ['range with a unit', '重10~20kg', '重十到二十公斤'],
    ['money', '售价¥199.9', '售价一百九十九点九元'],
    ['money with 亿', '融资$3.5亿', '融资三点五亿美元'],
    ['unit', '跑了3.5km，时速120km/h', '跑了三点五公里，时速一百二十公里每小时'],
    ['temperature', '25℃', '二十五摄氏度'],
    ['storage unit, spelled', '16GB内存', '十六G B内存'],
    ['code digit by digit', '订单号20240305001', '订单号二零二四零三零五零零一'],
    ['arithmetic', '2+3=5', '二加三等于五'],
    ['full-width digits', '１２３元', '一百二十三元'],
    ['a span of years, said as years', '2019-2020赛季', '二〇一九到二〇二〇赛季'],
    ['below zero: 零下 for temperatures, 负 otherwise', '-5℃，-3kg', '零下五摄氏度，负三公斤'],
    ['and more', '阅读量10万+', '阅读量十万加'],
  ])('%s: %s', (_rule, input, expected) => {
    expect(said(input).replace(/ /g, '')).toBe(expected.replace(/ /g, ''));
  });
});

describe('normalizeText: Latin words', () => {
  it('spells AI as letters (how it is said in Chinese), by the lexicon', () => {
    expect(said('AI改变世界')).toBe('A I 改变世界');
  });
  it('spells an all-caps acronym it does not know', () => {
    expect(said('用GPU训练')).toBe('用 G P U 训练');
  });
  it('reads a known brand name as a word, with its number', () => {
    expect(said('iPhone 15发布')).toBe('iPhone 十五发布');
  });
  it('splits mixed forms: WebGPU → Web + spelled GPU, REDtech → RED + tech', () => {
    expect(said('WebGPU')).toBe('Web G P U');
    expect(said('REDtech报道')).toBe('red tech 报道');
    expect(latinParts('HTMLParser')).toEqual(['HTML', 'Parser']);
  });
  it('reads a model number after a name digit by digit, a version as a number', () => {
    expect(said('RTX 4090显卡')).toBe('R T X 四零九零显卡');
    expect(said('GPT-4发布')).toBe('G P T 四发布');
  });
  it('takes the user’s word over the lexicon', () => {
    expect(said('AI来了', { AI: 'ai' })).toBe('ai 来了');
    expect(said('REDtech', { REDtech: 'red tech' })).toBe('red tech');
  });
  it('keeps ordinary words as words', () => {
    expect(said('hello world')).toBe('hello world');
  });
});

describe('normalizeText: the written text stays', () => {
  it('maps spoken ranges back to what was written', () => {
    const n = normalizeText('共1234人用AI');
    const spokenAt = n.spoken.indexOf('一千');
    expect(n.sourceRange(spokenAt, spokenAt + 2)).toEqual({ start: 1, end: 5 });
    expect(n.sourceRange(0, 1)).toEqual({ start: 0, end: 1 });
    const ai = n.spoken.indexOf('A I');
    expect(n.sourceRange(ai, ai + 3)).toEqual({ start: 7, end: 9 });
    expect(n.spans.map((s) => [s.text, s.kind])).toEqual([
      ['1234', 'number'],
      ['AI', 'word'],
    ]);
  });
  it('leaves text without numbers or Latin untouched', () => {
    const n = normalizeText('今天天气很好。');
    expect(n.spoken).toBe('今天天气很好。');
    expect(n.spans).toEqual([]);
  });
  it('applies to Chinese voices only', () => {
    expect(readsAsChinese('zh', 'x')).toBe(true);
    expect(readsAsChinese('en-US', '中文')).toBe(false);
    expect(readsAsChinese(undefined, '中文')).toBe(true);
  });
});

describe('spokenText', () => {
  it('reads for Chinese voices only', () => {
    expect(spokenText('第2个AI', 'zh').replace(/\s+/g, ' ').trim()).toBe('第二个 A I');
    expect(spokenText('2 AI agents', 'en')).toBe('2 AI agents');
  });
});
describe('book text as said (the audiobook reads through spokenText)', () => {
  it.each([
    ['2024年3月5日上午8:05出发', '二〇二四年三月五日上午八点零五分出发'],
    ['2024-12-25', '二〇二四年十二月二十五日'],
    ['9:00开会', '九点整开会'],
    ['气温25℃，湿度60%', '气温二十五摄氏度，湿度百分之六十'],
    ['增长-3.2%', '增长负百分之三点二'],
    ['他跑了3.5km', '他跑了三点五公里'],
    ['速度120km/h', '速度一百二十公里每小时'],
    ['电话13812345678', '电话幺三八幺二三四五六七八'],
    ['价格¥199.9', '价格一百九十九点九元'],
    ['我买了2个苹果，共3~5斤', '我买了两个苹果，共三到五斤'],
    ['１２３ＡＢＣ！', '一百二十三 A B C ！'],
    ['1/3的人', '三分之一的人'],
    ['1,234,567元', '一百二十三万四千五百六十七元'],
    ['第10章有105页、20010字', '第十章有一百零五页、两万零一十字'],
    ['2+3=5', '二加三等于五'],
    ['R&D', ' R 和 D '],
  ])('%s → %s', (input, expected) => {
    expect(spokenText(input, 'zh')).toBe(expected);
  });
});
