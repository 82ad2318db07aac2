import { PUBLIC_API_BASE, PUBLIC_API_DOCS_PATH } from '@vw/contract/constants/apikeys.ts';

export interface SnippetInput {
  origin: string;
  apiKey: string;
  voiceId: string;
  text: string;
}

const quote = (s: string) => JSON.stringify(s);

/** Quick-start code with the chosen voice and key filled in (curl, JavaScript fetch, OpenAI SDK). */
export function buildSnippets({ origin, apiKey, voiceId, text }: SnippetInput) {
  const base = `${origin}${PUBLIC_API_BASE}`;
  const body = JSON.stringify({ text, voice_id: voiceId, format: 'mp3' });
  return {
    curl: [
      `curl -X POST ${base}/tts \\`,
      `  -H "X-API-Key: ${apiKey}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '${body.replaceAll("'", "'\\''")}' \\`,
      '  -o speech.mp3',
    ].join('\n'),
    javascript: [
      `const res = await fetch(${quote(`${base}/tts`)}, {`,
      `  method: 'POST',`,
      `  headers: { 'X-API-Key': ${quote(apiKey)}, 'Content-Type': 'application/json' },`,
      `  body: JSON.stringify({ text: ${quote(text)}, voice_id: ${quote(voiceId)}, format: 'mp3' }),`,
      '});',
      'if (!res.ok) throw new Error((await res.json()).msg);',
      '// 短文本直接返回音频；超过 3000 字返回 { data: { task_id } }，用 GET /tts/task?task_id= 查询',
      'const audio = Buffer.from(await res.arrayBuffer());',
    ].join('\n'),
    openai: [
      "import OpenAI from 'openai';",
      '',
      `const client = new OpenAI({ apiKey: ${quote(apiKey)}, baseURL: ${quote(base)} });`,
      'const speech = await client.audio.speech.create({',
      "  model: 'tts-1',",
      `  voice: ${quote(voiceId)},`,
      `  input: ${quote(text)},`,
      '});',
      'const audio = Buffer.from(await speech.arrayBuffer());',
    ].join('\n'),
  };
}

export const docsUrl = (origin: string) => `${origin}${PUBLIC_API_DOCS_PATH}`;
