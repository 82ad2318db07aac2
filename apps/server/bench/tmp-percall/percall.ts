import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster } from '../load/cluster.ts';
import { makeClip, seedUsers } from '../load/harness.ts';

const N = Number(process.env.N ?? 30);
const dir = mkdtempSync(path.join(tmpdir(), 'vw-load-percall-'));
const cluster = await startCluster({ basePort: 18940, dir, apis: 1, workers: 1, env: { LOG_LEVEL: 'warn' } });
const base = cluster.url;
const CLIENT = { 'x-device-id': 'load', 'x-bundle-id': 'com.voiceworkbench.web' };
function table() {
  const t = new Map<number, { ppid: number; ticks: number; cmd: string }>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const st = readFileSync(`/proc/${e}/stat`, 'utf8');
      const c = st.lastIndexOf(')');
      const f = st.slice(c + 2).split(' ');
      t.set(Number(e), { ppid: Number(f[1]), ticks: f.slice(11, 15).reduce((a, b) => a + Number(b), 0), cmd: st.slice(st.indexOf('(') + 1, c) });
    } catch {}
  }
  return t;
}
function treeTicks(root: number) {
  const t = table();
  let sum = 0;
  for (const [pid, p] of t) {
    let q = pid;
    for (let h = 0; h < 10 && q; h++) {
      if (q === root) { sum += p.ticks; break; }
      q = t.get(q)?.ppid ?? 0;
    }
  }
  return sum;
}
function pgTicks() {
  let sum = 0;
  for (const p of table().values()) if (p.cmd.startsWith('postgres')) sum += p.ticks;
  return sum;
}
const [account] = await seedUsers(cluster, 1);
const signIn = async () => {
  const res = await fetch(`${base}/accounts/v1/auth_with_password`, { method: 'POST', headers: { ...CLIENT, 'content-type': 'application/json' }, body: JSON.stringify({ account, password: 'load-test-123' }) });
  return (await res.json()).data;
};
const signed = await signIn();
const token = signed.secure_tokens.access_token;
const call = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}${url}`, { method, headers: { ...CLIENT, authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const buf = Buffer.from(await res.arrayBuffer());
  if (res.headers.get('content-type')?.startsWith('application/json')) { const env = JSON.parse(buf.toString()); if (env.code !== 0) throw new Error(`${url}: ${env.code} ${env.msg}`); return env.data; }
  return buf;
};
const apiKey = (await call('POST', '/v1/api_keys/create', { name: 'k' })).secret_key;
const clip = makeClip();
let n = 0;
const kinds: Array<[string, () => Promise<unknown>]> = [
  ['voices', () => call('GET', '/p1/voices/internal_get_all_voices')],
  ['balance', () => call('GET', '/v1/balance/get_tenant_balance')],
  ['tasks list', () => call('GET', '/v1/tasks/list?page=1&page_size=10')],
  ['sign in', () => signIn()],
  ['short tts (new text)', () => call('POST', '/v1/tts/generate', { text: `你好，欢迎使用声音工作台${++n}号。`, voice_id: 'espeak-zh-xiaowen', speed: 1 })],
  ['short tts (same text)', () => call('POST', '/v1/tts/generate', { text: '你好，欢迎使用声音工作台。', voice_id: 'espeak-zh-xiaowen', speed: 1 })],
  ['public voices', () => fetch(`${base}/api/v1/voices`, { headers: { 'x-api-key': apiKey } }).then((r) => r.arrayBuffer())],
  ['public tts', () => fetch(`${base}/api/v1/tts`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ text: '公开接口测试。', voice_id: 'espeak-zh-xiaowen', speed: 1 }) }).then((r) => r.arrayBuffer())],
  ['long tts create', () => call('POST', '/v1/tts/generate', { text: `第${++n}篇。` + '这是长文本合成的负载测试。'.repeat(12), voice_id: 'espeak-zh-xiaowen', speed: 1, mode: 'task' })],
  ['usage export create', () => call('POST', '/v1/balance/credit/download-consume-details', { start_time: Math.floor(Date.now() / 1000) - 86400, end_time: Math.floor(Date.now() / 1000) + 60 })],
  ['products+order', async () => { await call('GET', '/v1/app/products?type=0'); await call('POST', '/v1/pay/create_order', { pay_channel: 'WECHAT', product_id: 'member_200_month' }); }],
  ['upload (ticket+put+complete)', async () => {
    const t = await call('POST', '/v1/misc/generate_obs_temporary_credentials', { name: 'clip.wav', size: clip.length, content_type: 'audio/wav' });
    const parts = [];
    for (const p of t.parts) { const r = await fetch(p.url, { method: 'PUT', body: new Uint8Array(clip.subarray((p.part_number - 1) * t.part_size, p.part_number * t.part_size)) }); await r.arrayBuffer(); parts.push({ part_number: p.part_number, etag: r.headers.get('etag') }); }
    await call('POST', '/v1/media/complete_upload', { upload_id: t.upload_id, parts });
  }],
];
const api = cluster.apis[0].child.pid!;
const HZ = 100;
const only = process.env.ONLY?.split(',');
for (const [name, fn0] of kinds) {
  if (only && !only.some((o) => name.startsWith(o))) continue;
  const fn = () => fn0().catch(() => null);
  await fn();
  const a0 = treeTicks(api), p0 = pgTicks(), s3p = cluster.s3.pid(), s0 = s3p ? treeTicks(s3p) : 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const ms = (performance.now() - t0) / N;
  const a = ((treeTicks(api) - a0) / HZ / N) * 1000, p = ((pgTicks() - p0) / HZ / N) * 1000, s = s3p ? ((treeTicks(s3p) - s0) / HZ / N) * 1000 : 0;
  console.log(`${name.padEnd(30)} wall ${ms.toFixed(1).padStart(6)} ms  api CPU ${a.toFixed(1).padStart(6)} ms  pg ${p.toFixed(1).padStart(5)} ms  s3 ${s.toFixed(1).padStart(5)} ms`);
}
await cluster.close();
process.exit(0);
