import { fireEvent, render } from '@testing-library/react';
import type { CharacterReading } from '@vw/contract';
import { parseTtsMarkup, SPEED_RATES } from '@vw/contract';
import { describe, expect, it, vi } from 'vitest';
import { addPause, draftChars, fromMarkup, setReading, toMarkup } from './draft.ts';
import { allState, pickForBatch, prune, toggle, toggleAll } from './history.ts';
import { groupDigits, pauseMs } from './markup.ts';
import { toneMarks } from './PolyphoneView.tsx';
import { choose, findSpots, toneNumbers, wordOptions } from './polyphone.ts';
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

describe('pauses', () => {
  const draft = { text: '你好世界', marks: [] };
  it('are marks beside the text, sent as the contract tag', () => {
    const d = addPause(draft, 2, 500);
    expect(d.text).toBe('你好世界');
    expect(toMarkup(d)).toBe('你好<break time="500ms"/>世界');
  });
  it('never split a marked reading', () => {
    const d = addPause(setReading(draft, 1, 'hao3'), 2, 1000);
    expect(toMarkup(addPause(d, 1, 200))).toBe(
      '你<break time="200ms"/><phoneme ph="hao3">好</phoneme><break time="1000ms"/>世界',
    );
  });
  it('custom lengths are clamped to 50 ms … 10 s', () => {
    expect(pauseMs(1.5)).toBe(1500);
    expect(pauseMs(0)).toBe(50);
    expect(pauseMs(99)).toBe(10_000);
    expect(pauseMs(Number.NaN)).toBe(50);
    expect(toMarkup(addPause({ text: '', marks: [] }, 0, pauseMs(1.25)))).toBe('<break time="1250ms"/>');
  });
  it('marks are not counted; the count follows the contract on what is sent', () => {
    const d = fromMarkup('银<phoneme ph="hang2">行</phoneme>到了。<break time="1s"/>Hi there');
    expect(d.text).toBe('银行到了。Hi there');
    expect(draftChars(d)).toBe(12);
    expect(parseTtsMarkup(toMarkup(d))).toEqual(
      parseTtsMarkup('银<phoneme ph="hang2">行</phoneme>到了。<break time="1000ms"/>Hi there'),
    );
  });
});

describe('polyphone selection', () => {
  const text = '我去银行取钱';
  const draft = { text, marks: [] };
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
    const spots = findSpots(draft, readings);
    expect(spots).toHaveLength(1);
    expect(spots[0]).toMatchObject({ at: 3, text: '行', pinyin: 'xing2', marked: false });
  });

  it('choosing a reading marks the place beside the text', () => {
    const [spot] = findSpots(draft, readings);
    const c = choose(draft, spot, 'hang2', null);
    expect(c.draft.text).toBe(text);
    expect(c.draft.marks).toEqual([{ kind: 'reading', at: 3, text: '行', pinyin: 'hang2' }]);
    expect(toMarkup(c.draft)).toBe('我去银<phoneme ph="hang2">行</phoneme>取钱');
    expect(c.dictionary).toBeNull();
    // The marked reading wins over the server's for the same place.
    expect(findSpots(c.draft, readings)[0]).toMatchObject({ text: '行', pinyin: 'hang2', marked: true });
  });

  it('changing or clearing a marked reading replaces the same mark', () => {
    const marked = setReading(draft, 3, 'hang2');
    const [spot] = findSpots(marked, readings);
    expect(choose(marked, spot, 'xing2', null).draft.marks).toEqual([
      { kind: 'reading', at: 3, text: '行', pinyin: 'xing2' },
    ]);
    expect(choose(marked, spot, 'xing2', null, 'xing2').draft.marks).toEqual([]);
    expect(setReading(marked, spot.at, '').marks).toEqual([]);
  });

  it('readings for another text are not placed', () => {
    expect(findSpots({ text: '我们去银行取钱', marks: [] }, readings)).toEqual([]);
  });

  it('offers the word with its neighbours for the dictionary, with their readings', () => {
    const [spot] = findSpots(draft, readings);
    expect(wordOptions(draft, readings, spot, 'hang2')).toEqual([
      { word: '银行', pinyin: 'yin2 hang2' },
      { word: '行取', pinyin: 'hang2 qu3' },
      { word: '行', pinyin: 'hang2' },
    ]);
    // A neighbour with a reading of its own is saved with that reading.
    expect(wordOptions(setReading(draft, 4, 'qu1'), readings, spot, 'hang2')[1]).toEqual({
      word: '行取',
      pinyin: 'hang2 qu1',
    });
    const c = choose(draft, spot, 'hang2', { word: '银行', pinyin: 'yin2 hang2' });
    expect(c.dictionary).toEqual({ word: '银行', pinyin: 'yin2 hang2' });
  });

  it('readings from the dictionary are flagged', () => {
    const dict = readings.map((x) =>
      x.text === '行' ? { ...x, pinyin: 'hang2', from_dictionary: true } : x,
    );
    expect(findSpots(draft, dict)[0]).toMatchObject({ pinyin: 'hang2', fromDictionary: true });
  });

  it('shows tone marks', () => {
    expect(toneMarks('hang2')).toBe('háng');
    expect(toneMarks('xing2')).toBe('xíng');
    expect(toneMarks('lv4')).toBe('lǜ');
    expect(toneMarks('zhong4 liang4')).toBe('zhòng liàng');
    expect(toneMarks('zhang3')).toBe('zhǎng');
    expect(toneMarks('de5')).toBe('de');
    expect(toneMarks('de0')).toBe('de');
    expect(toneMarks('gou3')).toBe('gǒu');
  });

  it('reads pinyin written with tone marks or numbers back as numbers', () => {
    for (const p of ['hang2', 'lv4', 'zhong4 liang4', 'zhang3', 'de5', 'gou3', 'nü3', 'yue4', 'er2'])
      expect(toneNumbers(toneMarks(p))).toBe(p.replace('v', 'ü'));
    expect(toneNumbers(' Yín  HÁNG ')).toBe('yin2 hang2');
    expect(toneNumbers('de0 lv4')).toBe('de5 lü4');
    expect(toneNumbers('shuō de')).toBe('shuo1 de5');
    expect(toneNumbers('shuo de', false)).toBe('shuo de');
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
