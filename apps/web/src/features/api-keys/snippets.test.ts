import { describe, expect, it } from 'vitest';
import { buildSnippets, docsUrl } from './snippets.ts';

describe('quick-start snippets', () => {
  const s = buildSnippets({
    origin: 'https://vw.example.com',
    apiKey: 'vwk_abc',
    voiceId: 'espeak-zh-xiaowen',
    text: "它's 你好",
  });
  it('fill in the key, voice and endpoint', () => {
    expect(s.curl).toContain('https://vw.example.com/api/v1/tts');
    expect(s.curl).toContain('X-API-Key: vwk_abc');
    // The single quote of the text is escaped for the shell.
    expect(s.curl).toContain(`"text":"它'\\''s 你好"`);
    expect(s.javascript).toContain('voice_id: "espeak-zh-xiaowen"');
    expect(s.openai).toContain('baseURL: "https://vw.example.com/api/v1"');
    expect(s.openai).toContain('voice: "espeak-zh-xiaowen"');
  });
  it('link the docs', () => {
    expect(docsUrl('http://x')).toBe('http://x/api/docs');
  });
});
