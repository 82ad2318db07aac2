import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { engineReport } from '../src/engines.cli.ts';
import { createTestServer } from './harness.ts';

/**
 * Issue 30 item 10: users never see operator configuration. Every Chinese text in the product —
 * the web app's pages and strings, the contract's messages, the server's errors, reasons and task
 * failures, the engines' Chinese error halves — is read from the source and must not name an
 * environment variable, a command or a file path. Those belong to `npm run admin -- engines` and the
 * log (the engines' English halves, which are not shown to users).
 */
const ROOT = path.resolve(__dirname, '../../..');
const SOURCES = ['apps/web/src', 'apps/server/src', 'packages/engines/src', 'packages/contract/src'];
// Operator-only code: the admin CLI, the start-up log, fakes and test helpers.
const SKIP =
  /(\.test\.tsx?|\.spec\.ts|\.fixture\.ts|\.cli\.ts|\/cli\.ts|\/main\.ts|\/fake-[^/]*|\/test-fixtures\/.*|\/test\/.*)$/;
// The public API's documentation names its own paths (/tts/task, /audio/speech): for developers, by design.
const API_DOCS = [
  'apps/web/src/features/api-keys/snippets.ts',
  'packages/contract/src/calls/public-api.ts',
  'apps/server/src/modules/public-api/openapi.ts',
].map((f) => path.join(ROOT, f));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (
      /\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts') &&
      !SKIP.test(full) &&
      !API_DOCS.includes(full)
    )
      yield full;
  }
}

const CJK = /[\u3400-\u9fff]/;
const OPERATOR_WORDS: Array<[string, RegExp]> = [
  ['an environment variable', /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/],
  ['a command', /\b(?:npm|npx|apt-get|apt|pip|brew|docker)\s+[a-z-]+|models:fetch/],
  ['operator wording (say 暂未开放 and what the user can do instead)', /未配置/],
  ['a file path', /(?:^|[\s（(：:])(?:\/[\w.-]+){2,}|[\w-]+\/[\w-]+\.(?:json|onnx|txt|ts|js)\b/],
];
// An interpolated service URL, folder or path in a Chinese text shows the operator's setup as well (the
// user's own URLs, a webhook's or a request's, are theirs to see).
const OPERATOR_VALUE = /(?:base(?:url)?|dir|path|endpoint)\b/i;

interface Finding {
  where: string;
  text: string;
  what: string;
}

function scan(file: string, source = readFileSync(file, 'utf8')): Finding[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Finding[] = [];
  const check = (node: ts.Node, text: string, values: string[] = []) => {
    if (!CJK.test(text)) return;
    const where = `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    for (const [what, re] of OPERATOR_WORDS) if (re.test(text)) found.push({ where, text, what });
    for (const v of values)
      if (OPERATOR_VALUE.test(v)) found.push({ where, text, what: `the value of ${v}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) {
      check(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('…');
      check(
        node,
        text,
        node.templateSpans.map((s) => s.expression.getText(sf)),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('words shown to users', () => {
  it('name no environment variable, command or file path anywhere in the product', () => {
    const files = SOURCES.flatMap((dir) => [...sourceFiles(path.join(ROOT, dir))]);
    expect(files.length).toBeGreaterThan(100);
    const findings = files.flatMap((f) => scan(f)).map((f) => `${f.where} — ${f.what}: ${f.text}`);
    expect(findings).toEqual([]);
  });

  it('catches each kind of operator word (the scan itself works)', () => {
    const probe = (code: string) => scan(path.join(ROOT, 'probe.tsx'), code).length;
    expect(probe(`const a = '请设置 LLM_BASE_URL 后重启';`)).toBe(1);
    expect(probe(`const a = '可用 npm run models:fetch 下载';`)).toBe(1);
    expect(probe(`const a = '模型目录 /var/lib/models 中没有';`)).toBe(1);
    expect(probe('const a = `无法连接服务（${baseUrl}）`;')).toBe(1);
    expect(probe('const a = <p>请设置 SEPARATOR_URL</p>;')).toBe(1);
    expect(probe(`const a = '该功能暂未开放，请联系管理员';`)).toBe(0);
  });
});

describe('npm run admin -- engines', () => {
  it('tells the operator, for each engine that does not run, what to set', async () => {
    const server = await createTestServer();
    try {
      const report = (await engineReport(server.ctx.config)).join('\n');
      for (const setting of [
        'SHERPA_ONNX_MODELS_DIR',
        'OPENAI_ASR_BASE_URL',
        'LLM_BASE_URL',
        'VOICE_CLONE_TRAINER_URL',
        'GPT_SOVITS_URL',
        'VC_SERVER_URL',
        'SEPARATOR_URL',
        'LIPSYNC_URL',
      ]) {
        expect(report).toContain(setting);
      }
      expect(report).toMatch(/^speech\s+espeak\s+ok$/m);
      expect(report).toMatch(
        /^erasing\s+lama\s+off\s+OpenCV Telea inpaints instead; .*engines install lama-big-512$/m,
      );
      expect(report).toMatch(/^language model\s+chat\s+off\s+set LLM_BASE_URL and LLM_MODEL$/m);
    } finally {
      await server.close();
    }
  });
});
