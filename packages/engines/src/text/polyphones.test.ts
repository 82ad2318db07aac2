import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mandarinReadings, toEspeakInput } from '../espeak/input.ts';
import { POLYPHONE_HELDOUT, POLYPHONE_HELDOUT_2, POLYPHONE_SET } from './polyphones.fixture.ts';
import { measurePolyphones, parseCase, userFix } from './polyphones.measure.ts';
import { findPolyphoneModel, pinyinReadings } from './polyphones.ts';

describe('polyphones in context', () => {
  it('the set has at least 300 well-formed sentences', () => {
    expect(POLYPHONE_SET.length).toBeGreaterThanOrEqual(300);
    for (const line of [...POLYPHONE_SET, ...POLYPHONE_HELDOUT, ...POLYPHONE_HELDOUT_2]) {
      const c = parseCase(line);
      expect(c.at, line).toBeGreaterThanOrEqual(0);
      expect(c.expected, line).toMatch(/^[a-zü]+[1-5]$/);
    }
  });

  it('reads ≥ 98 % of the set right without a dictionary, 100 % with the user fixing what was wrong', () => {
    const plain = measurePolyphones(POLYPHONE_SET);
    console.log(
      `polyphone set: ${plain.right}/${plain.total} = ${(plain.accuracy * 100).toFixed(1)} %`,
      plain.wrong.map((w) => `${w.sentence}@${w.at} ${w.got}≠${w.expected}`),
    );
    expect(plain.accuracy).toBeGreaterThanOrEqual(0.98);
    const heldOut = measurePolyphones([...POLYPHONE_HELDOUT, ...POLYPHONE_HELDOUT_2]);
    console.log(
      `held-out sets: ${heldOut.right}/${heldOut.total} = ${(heldOut.accuracy * 100).toFixed(1)} %`,
    );
    expect(heldOut.accuracy).toBeGreaterThanOrEqual(0.9);

    // The user's dictionary wins over every layer: every sentence (both sets) right once fixed.
    const all = [...POLYPHONE_SET, ...POLYPHONE_HELDOUT, ...POLYPHONE_HELDOUT_2];
    const wrong = new Set([...plain.wrong, ...heldOut.wrong].map((w) => w.sentence));
    const fixed = measurePolyphones(all, (c) => (wrong.has(c.sentence) ? userFix(c) : []));
    expect(fixed.wrong).toEqual([]);
  });

  it('fixes the readings pinyin-pro gets wrong by default', () => {
    const at = (text: string, ch: string, nth = 0) => {
      const r = pinyinReadings(text).filter((x) => x.char === ch);
      return r[nth]?.pinyin;
    };
    expect(at('还书', '还')).toBe('huan2');
    expect(at('借钱要还', '还')).toBe('huan2');
    expect(at('你得早点', '得')).toBe('dei3');
    expect(at('数一数', '数', 0)).toBe('shu3');
    expect(at('说得对', '得')).toBe('de5');
    expect(at('有空', '空')).toBe('kong4');
    // Non-Chinese characters have no reading; code points are kept (one entry per character).
    expect(pinyinReadings('A1还𠀀').map((r) => r.char)).toEqual(['A', '1', '还', '𠀀']);
    expect(pinyinReadings('A1').map((r) => r.pinyin)).toEqual(['', '']);
  });

  it('the user dictionary takes precedence, longest word first', () => {
    const dict = [
      { word: '银行', pinyin: 'yin2 xing2' },
      { word: '银行卡', pinyin: 'yín háng kǎ' },
    ];
    expect(pinyinReadings('去银行', dict).map((r) => r.pinyin)).toEqual(['qu4', 'yin2', 'xing2']);
    expect(pinyinReadings('银行卡', dict).map((r) => r.pinyin)).toEqual(['yin2', 'hang2', 'ka3']);
  });

  it('TTS uses the same readings: espeak input and the polyphone view', () => {
    expect(toEspeakInput('我去还书', { voice: 'cmn-latn-pinyin' })).toBe('<speak>wo3 qu4 huan2 shu1</speak>');
    const view = mandarinReadings('他说得对');
    expect(view.find((r) => r.text === '得')).toMatchObject({ pinyin: 'de5' });
    expect(view.find((r) => r.text === '得')?.candidates).toEqual(expect.arrayContaining(['de2', 'dei3']));
    // Candidates write the neutral tone as 5 like the readings, once each (never `de0` beside `de5`).
    for (const r of mandarinReadings('他说得对，长的地方了。')) {
      expect(r.candidates.every((c) => /^[a-zü]+[1-5]$/.test(c)), r.candidates.join()).toBe(true);
      expect(new Set(r.candidates).size).toBe(r.candidates.length);
    }
    // …and the user's dictionary still wins there.
    expect(toEspeakInput('说得对', { voice: 'cmn-latn-pinyin', dictionary: { 说得: 'shuo1 de2' } })).toBe(
      '<speak>shuo1 de2 dui4</speak>',
    );
  });

  it('detects a g2pW export in G2PW_MODEL_DIR or the models folder without loading it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'g2pw-'));
    try {
      expect(findPolyphoneModel({ SHERPA_ONNX_MODELS_DIR: root })).toBeUndefined();
      await mkdir(join(root, 'g2pw-chinese'));
      await writeFile(join(root, 'g2pw-chinese', 'g2pW.onnx'), '');
      expect(findPolyphoneModel({ SHERPA_ONNX_MODELS_DIR: root })).toBe(
        join(root, 'g2pw-chinese', 'g2pW.onnx'),
      );
      expect(findPolyphoneModel({ G2PW_MODEL_DIR: join(root, 'g2pw-chinese') })).toBe(
        join(root, 'g2pw-chinese', 'g2pW.onnx'),
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
