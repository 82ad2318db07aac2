import { fireEvent, render } from '@testing-library/react';
import type { CharacterReading } from '@vw/contract';
import { parseTtsMarkup, SPEED_RATES } from '@vw/contract';
import { describe, expect, it, vi } from 'vitest';
import { allState, pickForBatch, prune, toggle, toggleAll } from './history.ts';
import {
  countChars,
  groupDigits,
  insertPause,
  pauseMs,
  plainText,
  plainToRaw,
  safeCaret,
  setReading,
  tokenize,
} from './markup.ts';
import { toneMarks } from './PolyphoneView.tsx';
import { choose, findSpots, wordOptions } from './polyphone.ts';
import { formatRate, SpeedSlider, sliderRate, sliderValue } from './SpeedSlider.tsx';

describe('speed slider mapping', () => {
  it('maps the 11 steps -5..5 to 0.79…1.21 and back', () => {
    const steps = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5];
    expect(steps.map(sliderRate)).toEqual([...SPEED_RATES]);
    for (const s of steps) expect(sliderValue(sliderRate(s))).toBe(s);
  });
  it('snaps rates from older data to the nearest step', () => {
    expect(sliderValue(1)).toBe(0);
    expect(sliderValue(1.06)).toBe(1);
    expect(sliderValue(0.5)).toBe(-5);
    expect(sliderValue(2)).toBe(5);
  });
  it('formats the rate', () => {
    expect(formatRate(1)).toBe('1.0x');
    expect(formatRate(1.21)).toBe('1.21x');
  });
  it('the slider shows the step of the value and reports rates', () => {
    const onChange = vi.fn();
    const { getByTestId, getByRole } = render(<SpeedSlider value={1.09} onChange={onChange} />);
    expect(getByTestId('speed-slider').dataset.step).toBe('2');
    expect(getByTestId('speed-slider')).toHaveProperty('textContent', expect.stringContaining('1.09x'));
    // A native range input: the browser's arrow keys move it one step of 1 within -5..5.
    const handle = getByRole('slider');
    expect(handle).toMatchObject({ min: '-5', max: '5', step: '1', value: '2' });
    expect(handle.getAttribute('aria-valuetext')).toBe('1.09x');
    fireEvent.change(handle, { target: { value: '3' } });
    expect(onChange).toHaveBeenLastCalledWith(1.13);
    fireEvent.change(handle, { target: { value: '1' } });
    expect(onChange).toHaveBeenLastCalledWith(1.05);
  });
});

describe('pause markup', () => {
  it('inserts the contract tag at the caret', () => {
    const r = insertPause('你好世界', 2, 2, 500);
    expect(r.text).toBe('你好<break time="500ms"/>世界');
    expect(r.caret).toBe(2 + '<break time="500ms"/>'.length);
  });
  it('keeps a selection and puts the pause after it', () => {
    expect(insertPause('你好世界', 0, 2, 1000).text).toBe('你好<break time="1000ms"/>世界');
    expect(insertPause('你好世界', 2, 0, 1000).text).toBe('你好<break time="1000ms"/>世界');
  });
  it('never splits existing markup', () => {
    const text = '你<break time="200ms"/>好';
    expect(safeCaret(text, 5)).toBe(1 + '<break time="200ms"/>'.length);
    const r = insertPause(text, 5, 5, 2000);
    expect(r.text).toBe('你<break time="200ms"/><break time="2000ms"/>好');
  });
  it('custom lengths are clamped to 50 ms … 10 s', () => {
    expect(pauseMs(1.5)).toBe(1500);
    expect(pauseMs(0)).toBe(50);
    expect(pauseMs(99)).toBe(10_000);
    expect(pauseMs(Number.NaN)).toBe(50);
    expect(insertPause('', 0, 0, pauseMs(1.25)).text).toBe('<break time="1250ms"/>');
  });
  it('markup is not counted and reads as the contract parses it', () => {
    const text = '银<phoneme ph="hang2">行</phoneme>到了。<break time="1s"/>Hi there';
    expect(plainText(text)).toBe('银行到了。Hi there');
    expect(countChars(text)).toBe(12);
    const pieces = tokenize(text).map((t) =>
      t.kind === 'pause'
        ? { type: 'pause', ms: t.ms }
        : t.kind === 'reading'
          ? { type: 'phoneme', text: t.text, pinyin: t.reading }
          : { type: 'text', text: t.text },
    );
    // Offsets (which newer contract versions also report) are compared separately below.
    const contract = parseTtsMarkup(text).map((p) => {
      const { start: _s, end: _e, ...rest } = p as typeof p & { start?: number; end?: number };
      return rest;
    });
    expect(pieces).toEqual(contract);
    for (const t of tokenize(text)) expect(text.slice(t.start, t.end).length).toBe(t.end - t.start);
  });
  it('maps plain offsets back to the raw text', () => {
    const text = 'a<break time="1s"/>银<phoneme ph="hang2">行</phoneme>';
    const map = plainToRaw(text);
    expect(map.map((i) => text[i]).join('')).toBe('a银行');
  });
});

describe('polyphone selection', () => {
  const text = '我去银行取钱';
  const r = (start: number, text: string, pinyin: string, candidates: string[], from_dictionary = false) =>
    ({ text, start, end: start + 1, pinyin, candidates, from_dictionary }) as CharacterReading;
  const readings = [
    r(0, '我', 'wo3', ['wo3']),
    r(1, '去', 'qu4', ['qu4']),
    r(2, '银', 'yin2', ['yin2']),
    r(3, '行', 'xing2', ['xing2', 'hang2']),
    r(4, '取', 'qu3', ['qu3']),
    r(5, '钱', 'qian2', ['qian2']),
  ];

  it('finds the characters with several readings', () => {
    const spots = findSpots(text, readings);
    expect(spots).toHaveLength(1);
    expect(spots[0]).toMatchObject({ raw: 3, plain: 3, text: '行', pinyin: 'xing2', marked: false });
  });

  it('choosing a reading marks the place in the text', () => {
    const [spot] = findSpots(text, readings);
    const c = choose(text, spot, 'hang2', null);
    expect(c.edit.text).toBe('我去银<phoneme ph="hang2">行</phoneme>取钱');
    expect(c.dictionary).toBeNull();
    // The marked reading wins over the server's for the same place.
    const again = findSpots(c.edit.text, readings);
    expect(again[0]).toMatchObject({ text: '行', pinyin: 'hang2', marked: true });
    expect(plainText(c.edit.text)).toBe(text);
  });

  it('changing or clearing a marked reading edits the same tag', () => {
    const marked = '我去银<phoneme ph="hang2">行</phoneme>取钱';
    const [spot] = findSpots(marked, readings);
    expect(choose(marked, spot, 'xing2', null).edit.text).toBe('我去银<phoneme ph="xing2">行</phoneme>取钱');
    expect(choose(marked, spot, 'xing2', null, 'xing2').edit.text).toBe(text);
    expect(setReading(marked, spot.raw, '').text).toBe(text);
  });

  it('offers the word with its neighbours for the dictionary, with their readings', () => {
    const [spot] = findSpots(text, readings);
    expect(wordOptions(text, readings, spot, 'hang2')).toEqual([
      { word: '银行', pinyin: 'yin2 hang2' },
      { word: '行取', pinyin: 'hang2 qu3' },
      { word: '行', pinyin: 'hang2' },
    ]);
    const c = choose(text, spot, 'hang2', { word: '银行', pinyin: 'yin2 hang2' });
    expect(c.dictionary).toEqual({ word: '银行', pinyin: 'yin2 hang2' });
  });

  it('readings from the dictionary are flagged', () => {
    const dict = readings.map((x) =>
      x.text === '行' ? { ...x, pinyin: 'hang2', from_dictionary: true } : x,
    );
    expect(findSpots(text, dict)[0]).toMatchObject({ pinyin: 'hang2', fromDictionary: true });
  });

  it('shows tone marks', () => {
    expect(toneMarks('hang2')).toBe('háng');
    expect(toneMarks('xing2')).toBe('xíng');
    expect(toneMarks('lv4')).toBe('lǜ');
    expect(toneMarks('zhong4 liang4')).toBe('zhòng liàng');
    expect(toneMarks('de5')).toBe('de');
    expect(toneMarks('gou3')).toBe('gǒu');
  });
});

describe('history selection', () => {
  const items = ['a', 'b', 'c'].map((id) => ({ id, ready: id !== 'b' }));
  const ids = items.map((i) => i.id);
  it('toggles one item', () => {
    const s = toggle(new Set(), 'a');
    expect([...s]).toEqual(['a']);
    expect([...toggle(s, 'a')]).toEqual([]);
  });
  it('select all, then clear all', () => {
    const all = toggleAll(new Set(['a']), ids);
    expect(allState(all, ids)).toBe('all');
    expect(allState(toggleAll(all, ids), ids)).toBe('none');
    expect(allState(new Set(['a']), ids)).toBe('some');
    expect(allState(new Set(), [])).toBe('none');
  });
  it('drops ids that left the list', () => {
    expect([...prune(new Set(['a', 'x']), ids)]).toEqual(['a']);
  });
  it('batch picks keep list order and skip items that are not ready', () => {
    const sel = new Set(['c', 'b', 'a']);
    expect(pickForBatch(sel, items).map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(pickForBatch(sel, items, (i) => i.ready).map((i) => i.id)).toEqual(['a', 'c']);
  });
});

describe('character count formatting', () => {
  it('groups digits exactly as zh-CN toLocaleString does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 100000, 1234567, 50000000])
      expect(groupDigits(n)).toBe(n.toLocaleString('zh-CN'));
  });
});
