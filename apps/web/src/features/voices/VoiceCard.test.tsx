import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Voice } from './types.ts';
import { VoiceCard } from './VoiceCard.tsx';

const voice = (over: Partial<Voice>): Voice => ({
  voice_id: 'espeak-zh-xiaowen',
  name: '晓雯',
  engine: 'espeak',
  engine_label: '标准引擎',
  language: 'zh-CN',
  labels: { gender: 'female', language: 'zh-CN', age: 'young', accent: '普通话', style: '', use_case: '' },
  description: '标准引擎合成的青年女声，机器感明显。',
  preview_url: '',
  preview_text: '你好',
  required_level: 100,
  is_disabled: false,
  status: 2,
  is_favorite: false,
  model_ids: ['espeak-standard'],
  category: 'builtin',
  sort: 10,
  ...over,
});

const card = (v: Voice) =>
  render(
    <VoiceCard
      voice={v}
      favorite={false}
      premium={false}
      onFavorite={() => undefined}
      onUse={() => undefined}
      languageName={(c) => c}
    />,
  );

describe('VoiceCard engine label', () => {
  it('names the neural model of a local voice and marks it neural; the standard engine stays plain', () => {
    card(
      voice({
        voice_id: 'sherpa:kokoro-multi-lang-v1_1:45',
        name: '小贝',
        engine: 'sherpa-onnx',
        engine_label: '神经网络 · Kokoro 中英双语',
        model_ids: ['sherpa-onnx'],
      }),
    );
    const neural = screen.getByTestId('voice-engine');
    expect(neural.textContent).toBe('神经网络 · Kokoro 中英双语');
    expect(neural.classList.contains('is-neural')).toBe(true);
    expect(neural.dataset.engine).toBe('sherpa-onnx');
  });

  it('shows the standard engine as such', () => {
    card(voice({}));
    const standard = screen.getByTestId('voice-engine');
    expect(standard.textContent).toBe('标准引擎');
    expect(standard.classList.contains('is-neural')).toBe(false);
  });
});
