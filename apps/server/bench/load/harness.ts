/**
 * The load and fault harness: simulated users through nginx doing what people do on the workbench
 * (sign in, voices, short and long TTS, uploads with resume, a media task, task event streams,
 * payments through the sandbox, usage exports, the public API with a key), while faults hit the
 * cluster; after each fault and at the end the invariants are checked. Used by `npm run bench:load`
 * and by the CI-sized fault test: one module, two sizes.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QuestionnaireStatus } from '@vw/contract';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createLogger } from '../../src/logger.ts';
import { updateUser } from '../../src/modules/accounts/accounts.repo.ts';
import { findOrCreateUser, hashPassword } from '../../src/modules/accounts/accounts.service.ts';
import { grantCredits } from '../../src/modules/credits/ledger.service.ts';
import type { Cluster } from './cluster.ts';
import { checkInvariants, type InvariantReport, type TrackedUpload } from './invariants.ts';
import { stop, waitUntil } from './processes.ts';
import { openTaskStream, type SseStream } from './sse.ts';

export const FAULTS = [
  'worker-kill',
  'api-kill',
  'redis-restart',
  'postgres-restart',
  's3-down',
  'api-drain',
] as const;
export type FaultName = (typeof FAULTS)[number];

export interface LoadOptions {
  users: number;
  seconds: number;
  faults: readonly FaultName[];
  /** How long the S3 store stays unreachable in the s3-down fault. */
  s3DownSeconds: number;
  /** Users arrive evenly over this many seconds. */
  rampSeconds: number;
  /** Pause between one user's actions (ms, uniform in the range). */
  thinkMs: [number, number];
  log: (line: string) => void;
}

type Outcome = 'ok' | 'retried' | 'error' | 'wrong';

interface KindStats {
  latencies: number[];
  ok: number;
  retried: number;
  errors: number;
  wrong: number;
  notes: Map<string, number>;
}

export interface FaultResult {
  fault: FaultName;
  at: number;
  /** Until every API process is ready again and a call through nginx succeeds (ms). */
  serviceRecoveryMs: number | null;
  /** Until every task that was running when the fault hit had finished (ms). */
  tasksSettledMs: number | null;
  detail: string;
  invariants: InvariantReport;
}

export interface LoadReport {
  seconds: number;
  requests: number;
  kinds: Record<
    string,
    {
      count: number;
      p50: number;
      p99: number;
      ok: number;
      retried: number;
      errors: number;
      wrong: number;
      notes: Record<string, number>;
    }
  >;
  queueWait: Record<string, { count: number; p50: number; p99: number; max: number }>;
  sse: {
    streams: number;
    cleanEnds: number;
    cutOff: number;
    reconnects: number;
    tasksSeenBySse: number;
    tasksSeenByPoll: number;
  };
  peakRssMb: Record<string, number>;
  /** Reads (READ_KINDS) by minute of the run: when they were slow (the sign-in burst, a fault). */
  readsByMinute: Array<{ minute: number; count: number; p50: number; p99: number }>;
  /** CPU time (s) per process name, with its children's (ffmpeg, engines, backends); `load` is this harness. */
  cpuSeconds: Record<string, number>;
  faults: FaultResult[];
  final: InvariantReport;
  settleMs: number;
}

/** The calls that only read: the issue's p99 target is about these. */
const READ_KINDS = [
  'voices',
  'balance',
  'tasks list',
  'isolation',
  'tts task result',
  'voice changer result',
];

const CLIENT = { 'x-device-id': 'load', 'x-bundle-id': 'com.voiceworkbench.web' };
const PASSWORD = 'load-test-123';
const VOICE = 'espeak-zh-xiaowen';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
};

/** A failure worth retrying (the cluster is mid-fault) versus a clear answer. */
class Retryable extends Error {}
/** A success answer that is not what was asked for: never allowed. */
class WrongAnswer extends Error {}

/** Three seconds of Chinese speech (espeak-ng), 16 kHz mono WAV: the media clip every user uploads. */
export function makeClip(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-load-clip-'));
  try {
    const raw = path.join(dir, 'raw.wav');
    const clip = path.join(dir, 'clip.wav');
    execFileSync('espeak-ng', ['-v', 'cmn', '-w', raw, '今天天气很好，我们一起去公园散步，然后回家吃饭。']);
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      raw,
      '-t',
      '3',
      '-ar',
      '16000',
      '-ac',
      '1',
      clip,
    ]);
    return readFileSync(clip);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Users made directly in the database (phone numbers 1770000xxxx), with a password and credits. */
export async function seedUsers(cluster: Cluster, count: number): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-load-seed-'));
  const config = loadConfig({ ...cluster.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = openDatabase(config.database);
  const ctx = createContext({ config, database, clock: systemClock, log: createLogger('silent') });
  try {
    const hash = await hashPassword(PASSWORD);
    const accounts: string[] = [];
    for (let i = 0; i < count; i++) {
      const account = `177${String(i).padStart(8, '0')}`;
      const { user } = await findOrCreateUser(ctx, account);
      await updateUser(ctx.db, user.id, {
        password_hash: hash,
        questionnaire_status: QuestionnaireStatus.Done,
        updated_at: Date.now(),
      });
      await grantCredits(ctx, {
        userId: user.id,
        source: 'gift',
        amount: 1_000_000,
        expiresAt: Date.now() + 30 * 86_400_000,
        grantKey: `load:${user.id}`,
        remark: 'load test',
      });
      accounts.push(account);
    }
    return accounts;
  } finally {
    await ctx.jobs.close();
    await ctx.taskEvents.close();
    await ctx.storage.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface TaskRecord {
  id: string;
  kind: string;
  ownerId: string;
  createdAt: number;
  final?: string;
  seenBy?: 'sse' | 'poll';
}

/** One run: users, faults, checks. */
export async function runLoad(cluster: Cluster, options: LoadOptions): Promise<LoadReport> {
  const { log } = options;
  const base = cluster.url;
  const stats = new Map<string, KindStats>();
  const tasks = new Map<string, TaskRecord>();
  const uploads: TrackedUpload[] = [];
  const sse = { streams: 0, cleanEnds: 0, cutOff: 0, reconnects: 0 };
  const peak: Record<string, number> = {};
  const clip = makeClip();
  const clipSha = createHash('sha256').update(clip).digest('hex');
  const db = openDatabase({ kind: 'postgres', url: cluster.pgUrl });

  const reads: Array<{ at: number; ms: number }> = [];
  const record = (kind: string, ms: number, outcome: Outcome, note?: string) => {
    const s: KindStats = stats.get(kind) ?? {
      latencies: [],
      ok: 0,
      retried: 0,
      errors: 0,
      wrong: 0,
      notes: new Map(),
    };
    stats.set(kind, s);
    if (outcome === 'ok' || outcome === 'retried') {
      s.latencies.push(ms);
      if (READ_KINDS.includes(kind)) reads.push({ at: Date.now(), ms });
    }
    if (outcome === 'ok') s.ok++;
    else if (outcome === 'retried') s.retried++;
    else if (outcome === 'error') s.errors++;
    else s.wrong++;
    if (note) s.notes.set(note, (s.notes.get(note) ?? 0) + 1);
  };

  // Peak resident memory per process (VmHWM), sampled; a restarted process keeps its name's maximum.
  // CPU time likewise, per pid (a restarted process adds its own): where the two cores went.
  const cpuTicks = new Map<string, Map<number, number>>();
  const cpuAtStart = process.cpuUsage();
  const sampler = setInterval(() => {
    const table = processTable();
    for (const [name, pid] of Object.entries(cluster.pids())) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peak[name] = Math.max(peak[name] ?? 0, Math.round(kb / 1024));
      } catch {
        continue; // gone between the listing and the read
      }
      // Its own time, its ended children's, and its live children's (PostgreSQL's backends, ffmpeg).
      let ticks = table.get(pid)?.ticks ?? 0;
      for (const p of table.values()) if (p.ppid === pid) ticks += p.ticks;
      if (!cpuTicks.has(name)) cpuTicks.set(name, new Map());
      cpuTicks.get(name)!.set(pid, ticks);
    }
  }, 1_000);

  /**
   * One call as a client makes it: retried (with backoff, up to `patienceMs`) on connection errors,
   * 502/503/504 and 429; a business error is a clear answer; `check` throws WrongAnswer on a success
   * that is not right. Records the kind's latency and outcome.
   */
  async function act<T>(kind: string, run: () => Promise<T>, patienceMs = 60_000): Promise<T | null> {
    const started = performance.now();
    let tries = 0;
    for (;;) {
      tries++;
      try {
        const value = await run();
        record(kind, performance.now() - started, tries === 1 ? 'ok' : 'retried');
        return value;
      } catch (err) {
        if (err instanceof WrongAnswer) {
          record(kind, 0, 'wrong', err.message.slice(0, 120));
          log(`WRONG ANSWER (${kind}): ${err.message}`);
          return null;
        }
        const retryable =
          err instanceof Retryable || (err instanceof TypeError && /fetch failed/.test(err.message));
        if (!retryable || performance.now() - started > patienceMs) {
          record(kind, 0, 'error', (err as Error).message.slice(0, 80));
          return null;
        }
        await sleep(Math.min(5_000, 200 * 2 ** Math.min(tries, 5)) * (0.5 + Math.random()));
      }
    }
  }

  /** Sends a workbench call and answers the envelope's data; 5xx/429 retry, other errors are clear. */
  async function callApi(token: string, ip: string, method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...CLIENT,
        'x-forwarded-for': ip,
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status >= 500 || res.status === 429)
      throw new Retryable(`HTTP ${res.status} ${text.slice(0, 80)}`);
    let env: { code: number; msg: string; data: unknown };
    try {
      env = JSON.parse(text);
    } catch {
      throw new WrongAnswer(`${url}: not JSON (HTTP ${res.status}): ${text.slice(0, 80)}`);
    }
    if (env.code !== 0) throw new Error(`code ${env.code}: ${env.msg}`);
    // biome-ignore lint/suspicious/noExplicitAny: each caller checks the fields it reads
    return env.data as any;
  }

  /** Waits for a task's end from the user's event stream; polls the task when the stream is quiet. */
  const waiters = new Map<string, (status: string) => void>();
  async function waitTask(
    token: string,
    ip: string,
    record: TaskRecord,
    limitMs: number,
  ): Promise<string | null> {
    const final = new Promise<string>((resolve) => waiters.set(record.id, resolve));
    const until = Date.now() + limitMs;
    while (Date.now() < until && !record.final) {
      const got = await Promise.race([final, sleep(10_000).then(() => null)]);
      if (got) break;
      // Quiet for 10 s: ask (the stream may be reconnecting).
      const data = await callApi(token, ip, 'GET', `/v1/tasks/get?task_id=${record.id}`).catch(() => null);
      const status = data?.task?.status as string | undefined;
      if (status && ['succeeded', 'failed', 'cancelled'].includes(status) && !record.final) {
        record.final = status;
        record.seenBy = 'poll';
        if (process.env.LOAD_DEBUG)
          log(`poll saw ${record.kind} ${record.id} ${status} after ${Date.now() - record.createdAt} ms`);
      }
    }
    waiters.delete(record.id);
    return record.final ?? null;
  }

  const deadline = Date.now() + options.seconds * 1000;
  let longTexts = 0;
  // Users keep going until the time is up and every fault has been injected: faults hit a loaded cluster.
  let faultsDone = false;
  const running = () => Date.now() < deadline || !faultsDone;
  const accounts = await seedUsers(cluster, options.users);
  log(`seeded ${accounts.length} users`);

  async function user(index: number): Promise<void> {
    const account = accounts[index];
    const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    // Users arrive evenly over the ramp, as a population does (a ramp of 0 is a flash crowd).
    await sleep((index / options.users) * options.rampSeconds * 1000);
    const signed = await act('sign in', async () => {
      const res = await fetch(`${base}/accounts/v1/auth_with_password`, {
        method: 'POST',
        headers: { ...CLIENT, 'x-forwarded-for': ip, 'content-type': 'application/json' },
        body: JSON.stringify({ account, password: PASSWORD }),
      });
      if (res.status >= 500 || res.status === 429) throw new Retryable(`HTTP ${res.status}`);
      const env = await res.json();
      if (env.code !== 0) throw new Error(`code ${env.code}: ${env.msg}`);
      return env.data as { secure_tokens: { access_token: string }; user_info: { uid: string } };
    });
    if (!signed) return;
    const token = signed.secure_tokens.access_token;
    const uid = signed.user_info.uid;
    const mine = (id: string, kind: string) => {
      // The same text again answers the task already made for it: one record per task.
      const known = tasks.get(id);
      if (known) return known;
      const r: TaskRecord = { id, kind, ownerId: uid, createdAt: Date.now() };
      tasks.set(id, r);
      return r;
    };

    // The user's task event stream, reopened from its Last-Event-ID whenever it ends.
    let stream: SseStream | null = null;
    let lastId: number | undefined;
    let open = true;
    const keepStream = (async () => {
      while (open && running()) {
        try {
          stream = await openTaskStream(base, token, {
            lastEventId: lastId,
            headers: { 'x-forwarded-for': ip },
            onEvent: (e) => {
              const data = e.data as { task?: { task_id: string; status: string } };
              const t = data.task && tasks.get(data.task.task_id);
              if (
                t &&
                data.task &&
                ['succeeded', 'failed', 'cancelled'].includes(data.task.status) &&
                !t.final
              ) {
                t.final = data.task.status;
                t.seenBy = 'sse';
                waiters.get(t.id)?.(t.final);
              }
            },
          });
          sse.streams++;
          // The user finished while this stream was opening: nobody else will close it.
          if (!open) await stream.close();
          const end = await stream.ended;
          lastId = stream.lastId() ?? lastId;
          if (end === 'ended') sse.cleanEnds++;
          else if (end === 'error') sse.cutOff++;
          if (open) sse.reconnects++;
        } catch {
          sse.cutOff++;
        }
        if (open) await sleep(500 + Math.random() * 1000);
      }
    })();

    const apiKey = await act('api key create', async () => {
      const data = await callApi(token, ip, 'POST', '/v1/api_keys/create', { name: `load ${index}` });
      return data.secret_key as string;
    });

    const actions: Array<[number, () => Promise<unknown>]> = [
      [
        20,
        () =>
          act('voices', async () => {
            const data = await callApi(token, ip, 'GET', '/p1/voices/internal_get_all_voices');
            if (
              !Array.isArray(data.voices) ||
              !data.voices.some((v: { voice_id: string }) => v.voice_id === VOICE)
            ) {
              throw new WrongAnswer('voice list without the espeak voice');
            }
          }),
      ],
      [
        12,
        () =>
          act('balance', async () => {
            const data = await callApi(token, ip, 'GET', '/v1/balance/get_tenant_balance');
            const values = Object.values(data).filter((v) => typeof v === 'number') as number[];
            if (values.some((v) => v < 0)) throw new WrongAnswer(`negative balance ${JSON.stringify(data)}`);
          }),
      ],
      [
        10,
        () =>
          act('tasks list', async () => {
            const data = await callApi(token, ip, 'GET', '/v1/tasks/list?page=1&page_size=10');
            const items = (data.list ?? []) as Array<{ task_id: string }>;
            for (const t of items) {
              const known = tasks.get(t.task_id);
              if (known && known.ownerId !== uid)
                throw new WrongAnswer(`another user's task ${t.task_id} in the list`);
            }
          }),
      ],
      [
        4,
        () =>
          act('isolation', async () => {
            const other = [...tasks.values()].find((t) => t.ownerId !== uid);
            if (!other) return;
            const res = await fetch(`${base}/v1/tasks/get?task_id=${other.id}`, {
              headers: { ...CLIENT, 'x-forwarded-for': ip, authorization: `Bearer ${token}` },
            });
            if (res.status >= 500) throw new Retryable(`HTTP ${res.status}`);
            const env = await res.json();
            if (env.code === 0) throw new WrongAnswer(`read another user's task ${other.id}`);
          }),
      ],
      [
        10,
        () =>
          act('short tts', async () => {
            const res = await fetch(`${base}/v1/tts/generate`, {
              method: 'POST',
              headers: {
                ...CLIENT,
                'x-forwarded-for': ip,
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ text: '你好，欢迎使用声音工作台。', voice_id: VOICE, speed: 1 }),
              signal: AbortSignal.timeout(60_000),
            });
            const bytes = Buffer.from(await res.arrayBuffer());
            if (res.status >= 500 || res.status === 429) throw new Retryable(`HTTP ${res.status}`);
            const type = res.headers.get('content-type') ?? '';
            if (type.startsWith('application/json'))
              throw new Error(`refused: ${bytes.toString().slice(0, 80)}`);
            if (type !== 'audio/mpeg' || bytes.length < 1000)
              throw new WrongAnswer(`short tts gave ${type}, ${bytes.length} bytes`);
          }),
      ],
      [
        3,
        async () => {
          const created = await act('long tts task', async () =>
            callApi(token, ip, 'POST', '/v1/tts/generate', {
              text: `第${++longTexts}篇。${Array.from({ length: 12 }, (_, i) => `这是第${i + 1}句，长文本合成的负载测试。`).join('')}`,
              voice_id: VOICE,
              speed: 1,
              mode: 'task',
            }),
          );
          if (!created?.task_id) return;
          const r = mine(created.task_id, 'tts');
          const status = await waitTask(token, ip, r, 240_000);
          if (status === 'succeeded') {
            await act('tts task result', async () => {
              const data = await callApi(token, ip, 'GET', `/v1/tts/task?task_id=${r.id}`);
              if (data.status !== 'succeeded' || !data.item?.audio_url)
                throw new WrongAnswer(`tts task result ${JSON.stringify(data).slice(0, 120)}`);
            });
          }
        },
      ],
      [
        3,
        async () => {
          const upload = await uploadClip(token, ip, uid);
          if (!upload?.assetId) return;
          const created = await act('voice changer task', async () =>
            callApi(token, ip, 'POST', '/v1/voice-changer/create', {
              asset_id: upload.assetId,
              pitch_shift: 4,
              format: 'mp3',
            }),
          );
          if (!created?.task_id) return;
          const r = mine(created.task_id, 'voice_changer');
          const status = await waitTask(token, ip, r, 300_000);
          if (status === 'succeeded') {
            await act('voice changer result', async () => {
              const data = await callApi(token, ip, 'GET', `/v1/voice-changer/result?task_id=${r.id}`);
              if (!data.engine_label || !data.converted?.url || data.converted.size <= 0)
                throw new WrongAnswer(`voice changer result ${JSON.stringify(data).slice(0, 120)}`);
            });
          }
        },
      ],
      [
        2,
        async () => {
          const created = await act('usage export', async () =>
            callApi(token, ip, 'POST', '/v1/balance/credit/download-consume-details', {
              start_time: Math.floor(Date.now() / 1000) - 7 * 86_400,
              end_time: Math.floor(Date.now() / 1000) + 60,
            }),
          );
          if (!created?.task_id) return;
          // The call answers the export's id; its task is the export row's job_id.
          const exportRow = await db.db
            .selectFrom('credit_exports')
            .select('job_id')
            .where('id', '=', created.task_id)
            .executeTakeFirst();
          if (!exportRow?.job_id) {
            record('usage export', 0, 'wrong', 'export without its task');
            return;
          }
          const r = mine(exportRow.job_id, 'credits_export');
          await waitTask(token, ip, r, 120_000);
        },
      ],
      [
        2,
        () =>
          act('payment order', async () => {
            const products = await callApi(token, ip, 'GET', '/v1/app/products?type=0');
            const product = (products.product_list as Array<{ product_id: string }>).find(
              (p) => p.product_id === 'member_200_month',
            );
            if (!product) throw new WrongAnswer('no member_200_month product');
            const order = await callApi(token, ip, 'POST', '/v1/pay/create_order', {
              pay_channel: 'WECHAT',
              product_id: product.product_id,
            });
            const page = new URL(order.code_url as string);
            const paid = await fetch(`${base}${page.pathname}/pay${page.search}`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
              body: 'ok=1',
              redirect: 'manual',
            });
            await paid.arrayBuffer();
            if (paid.status >= 500) throw new Retryable(`sandbox pay HTTP ${paid.status}`);
            const info = await waitUntil(
              'the order to be paid',
              async () => {
                const data = await callApi(
                  token,
                  ip,
                  'GET',
                  `/v1/pay/get_order?buss_orderid=${order.buss_orderid}`,
                );
                return data.order_info.status === 200 ? data.order_info : undefined;
              },
              30_000,
              500,
            ).catch(() => null);
            if (!info) throw new Error('order not paid within 30 s');
            if (info.product_id !== product.product_id)
              throw new WrongAnswer('the order paid is another product');
          }),
      ],
      [
        10,
        () =>
          act('public api', async () => {
            if (!apiKey) return;
            const which = pick(['voices', 'balance', 'voices', 'balance', 'tts'] as const);
            const res = await fetch(`${base}/api/v1/${which}`, {
              method: which === 'tts' ? 'POST' : 'GET',
              headers: {
                'x-api-key': apiKey,
                'x-forwarded-for': ip,
                ...(which === 'tts' ? { 'content-type': 'application/json' } : {}),
              },
              body:
                which === 'tts'
                  ? JSON.stringify({ text: '公开接口测试。', voice_id: VOICE, speed: 1 })
                  : undefined,
              signal: AbortSignal.timeout(60_000),
            });
            const bytes = Buffer.from(await res.arrayBuffer());
            if (res.status >= 500 || res.status === 429) throw new Retryable(`HTTP ${res.status}`);
            if (res.status >= 400) throw new Error(`HTTP ${res.status}: ${bytes.toString().slice(0, 80)}`);
            if (which === 'tts' && !(res.headers.get('content-type') ?? '').startsWith('audio/')) {
              throw new WrongAnswer(`public tts gave ${res.headers.get('content-type')}`);
            }
          }),
      ],
    ];
    const total = actions.reduce((s, [w]) => s + w, 0);
    // The kinds that make tasks, uploads and payments come first, so even a short run covers them
    // all: a few users each go through all of them, many users take one each (all of them at once
    // would be a burst no population makes). Then each user picks by weight.
    const opening = [6, 5, 4, 7, 8, 9];
    const openingSteps = options.users <= opening.length ? opening.length : 1;
    for (let step = 0; running(); step++) {
      const roll = Math.random() * total;
      let sum = 0;
      const action =
        step < openingSteps
          ? actions[opening[(index + step) % opening.length]][1]
          : actions.find(([w]) => {
              sum += w;
              return roll < sum;
            })![1];
      await action();
      await sleep(options.thinkMs[0] + Math.random() * (options.thinkMs[1] - options.thinkMs[0]));
    }
    open = false;
    await (stream as SseStream | null)?.close();
    await keepStream;
  }

  /** Presigned multipart straight to S3; the first PUT is cut halfway (a dropped connection) and resumed. */
  async function uploadClip(token: string, ip: string, uid: string): Promise<TrackedUpload | null> {
    const ticketAskedAt = Date.now();
    const ticket = await act('upload ticket', () =>
      callApi(token, ip, 'POST', '/v1/misc/generate_obs_temporary_credentials', {
        name: 'clip.wav',
        size: clip.length,
        content_type: 'audio/wav',
      }),
    );
    if (!ticket?.upload_id) return null;
    const tracked: TrackedUpload = {
      uploadId: ticket.upload_id,
      ownerId: uid,
      sha256: clipSha,
      size: clip.length,
      startedAt: ticketAskedAt,
      clientDone: false,
    };
    uploads.push(tracked);
    const parts: Array<{ part_number: number; etag: string }> = [];
    for (const part of ticket.parts as Array<{ part_number: number; url: string }>) {
      const slice = clip.subarray(
        (part.part_number - 1) * ticket.part_size,
        part.part_number * ticket.part_size,
      );
      // The first try drops the connection mid-body (a user's network); the resume sends the part again.
      const cut = new AbortController();
      const half = slice.subarray(0, slice.length >> 1);
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array(half));
          setTimeout(() => cut.abort(), 50);
        },
      });
      await fetch(part.url, { method: 'PUT', body, signal: cut.signal, duplex: 'half' } as RequestInit).catch(
        () => null,
      );
      const etag = await act(
        'upload part (resumed)',
        async () => {
          const res = await fetch(part.url, {
            method: 'PUT',
            body: new Uint8Array(slice),
            signal: AbortSignal.timeout(30_000),
          });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Retryable(`part PUT HTTP ${res.status}`);
          return res.headers.get('etag') ?? '';
        },
        90_000,
      );
      if (!etag) {
        tracked.clientDone = true; // left to resume later
        return tracked;
      }
      parts.push({ part_number: part.part_number, etag });
    }
    const done = await act(
      'upload complete',
      () => callApi(token, ip, 'POST', '/v1/media/complete_upload', { upload_id: ticket.upload_id, parts }),
      90_000,
    );
    const asset = done?.asset as { asset_id: string; sha256: string; size: number } | undefined;
    tracked.clientDone = true;
    if (asset) {
      tracked.assetId = asset.asset_id;
      if (asset.sha256 !== clipSha || asset.size !== clip.length)
        record('upload complete', 0, 'wrong', 'asset differs from the file sent');
    }
    return tracked;
  }

  // Faults, spread over the run while the users work.
  const faults: FaultResult[] = [];
  const runFaults = (async () => {
    const span = options.seconds * 1000;
    const first = Math.min(20_000, span * 0.15);
    const gap = options.faults.length > 1 ? (span * 0.85 - first) / options.faults.length : 0;
    try {
      for (const [i, fault] of options.faults.entries()) {
        const at = Date.now() + (i === 0 ? first : gap);
        while (Date.now() < at) await sleep(250);
        faults.push(await injectFault(fault));
      }
    } finally {
      faultsDone = true;
    }
  })();

  const settling: Array<Promise<void>> = [];
  async function allFinal(ids: string[]): Promise<boolean> {
    if (ids.length === 0) return true;
    const rows = await db.db.selectFrom('tasks').select(['id', 'status']).where('id', 'in', ids).execute();
    return (
      rows.length === ids.length && rows.every((r) => ['succeeded', 'failed', 'cancelled'].includes(r.status))
    );
  }

  async function ready(): Promise<boolean> {
    for (const [i, api] of cluster.apis.entries()) {
      if (!api.alive()) return false;
      const res = await fetch(`http://127.0.0.1:${cluster.apiPort(i)}/readyz`, {
        signal: AbortSignal.timeout(3_000),
      }).catch(() => null);
      await res?.body?.cancel();
      if (res?.status !== 200) return false;
    }
    const through = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(3_000) }).catch(() => null);
    await through?.body?.cancel();
    return through?.status === 200;
  }

  async function injectFault(fault: FaultName): Promise<FaultResult> {
    const inFlight = [...tasks.values()].filter((t) => !t.final).map((t) => t.id);
    let detail = '';
    const started = Date.now();
    log(`fault: ${fault} (${inFlight.length} tasks in flight)`);
    if (fault === 'worker-kill') {
      // The worker running a media stage: the one with ffmpeg/rubberband/espeak under it.
      const victim = await waitUntil(
        'a worker mid media stage',
        async () =>
          cluster.workers.find(
            (w) => w.alive() && childNames(w.child.pid!).some((n) => /ffmpeg|rubberband|espeak/.test(n)),
          ),
        60_000,
        100,
      ).catch(() => cluster.workers.find((w) => w.alive())!);
      detail = `SIGKILL ${victim.name} (children: ${childNames(victim.child.pid!).join(',') || 'none'})`;
      const index = cluster.workers.indexOf(victim);
      await stop(victim, 'SIGKILL');
      // The supervisor (systemd Restart=always) brings it back; its dead lease is another worker's to take over.
      await sleep(2_000);
      cluster.startWorker(index);
    } else if (fault === 'api-kill') {
      const victim = cluster.apis[0];
      detail = `SIGKILL ${victim.name} with streams and uploads open`;
      await stop(victim, 'SIGKILL');
      await sleep(2_000);
      await cluster.startApi(0);
    } else if (fault === 'redis-restart') {
      detail = 'Redis SIGTERM (AOF kept), started again after 3 s';
      await cluster.redis.stop('clean');
      await sleep(3_000);
      await cluster.redis.start();
    } else if (fault === 'postgres-restart') {
      detail = 'PostgreSQL pg_ctl stop -m immediate, started again after 3 s';
      await cluster.postgres.stop('immediate');
      await sleep(3_000);
      await cluster.postgres.start();
    } else if (fault === 's3-down') {
      detail = `s3rver stopped for ${options.s3DownSeconds} s`;
      await cluster.s3.stop('clean');
      await sleep(options.s3DownSeconds * 1000);
      await cluster.s3.start();
    } else if (fault === 'api-drain') {
      const index = cluster.apis.length - 1;
      const victim = cluster.apis[index];
      detail = `SIGTERM ${victim.name} (drains behind nginx), started again after it exits`;
      const code = await stop(victim, 'SIGTERM');
      detail += `; exit ${code}`;
      await sleep(2_000);
      await cluster.startApi(index);
    }
    const restored = Date.now();
    const serviceRecoveryMs = await waitUntil('the cluster to be ready', () => ready(), 180_000, 200)
      .then(() => Date.now() - started)
      .catch(() => null);
    const invariants = await checkInvariants(
      db.db,
      { taskIds: tasks.keys(), uploads },
      { settled: false },
    ).catch((err) => ({ violations: [`invariant check failed: ${err}`] }) as InvariantReport);
    log(
      `  ${detail}; fault lasted ${restored - started} ms, service back after ${serviceRecoveryMs} ms, violations ${invariants.violations.length}`,
    );
    const result: FaultResult = {
      fault,
      at: started,
      serviceRecoveryMs,
      tasksSettledMs: null,
      detail,
      invariants,
    };
    // The tasks the fault caught take longer (a dead worker's lease must run out): measured meanwhile.
    settling.push(
      waitUntil('in-flight tasks to finish', () => allFinal(inFlight), 300_000, 500)
        .then(() => {
          result.tasksSettledMs = Date.now() - started;
          log(`  ${fault}: the ${inFlight.length} tasks in flight settled after ${result.tasksSettledMs} ms`);
        })
        .catch(() => log(`  ${fault}: tasks in flight did not settle`)),
    );
    return result;
  }

  const runStarted = Date.now();
  await Promise.all(accounts.map((_, i) => user(i).catch((err) => log(`user ${i} stopped: ${err}`))));
  await runFaults;
  await Promise.all(settling);
  const loadEnded = Date.now();
  // Settle: every task the clients were given ends; lapsed stream holds are swept.
  const settleStarted = Date.now();
  await waitUntil('every task to finish', () => allFinal([...tasks.keys()]), 300_000, 1_000).catch(
    () => null,
  );
  await waitUntil(
    'lapsed holds to be swept',
    async () => {
      const open = await db.db
        .selectFrom('credit_holds')
        .select('lease_until')
        .where('status', '=', 'held')
        .execute();
      return open.every((h) => h.lease_until !== null && h.lease_until > Date.now());
    },
    180_000,
    1_000,
  ).catch(() => null);
  const settleMs = Date.now() - settleStarted;
  clearInterval(sampler);
  const final = await checkInvariants(db.db, { taskIds: tasks.keys(), uploads }, { settled: true });

  // Queue wait: from creation to the first stage's start, per tool (lanes: tts and media heavy, exports light).
  const queueWait: LoadReport['queueWait'] = {};
  const ids = [...tasks.keys()];
  const rows = ids.length
    ? await db.db
        .selectFrom('tasks')
        .select(['tool', 'created_at', 'started_at'])
        .where('id', 'in', ids)
        .execute()
    : [];
  for (const tool of new Set(rows.map((r) => r.tool))) {
    const waits = rows
      .filter((r) => r.tool === tool && r.started_at)
      .map((r) => r.started_at! - r.created_at);
    queueWait[tool] = {
      count: waits.length,
      p50: percentile(waits, 50),
      p99: percentile(waits, 99),
      max: Math.max(0, ...waits),
    };
  }
  await db.close();

  const kinds: LoadReport['kinds'] = {};
  let requests = 0;
  for (const [kind, s] of stats) {
    const count = s.ok + s.retried + s.errors + s.wrong;
    requests += count;
    kinds[kind] = {
      count,
      p50: percentile(s.latencies, 50),
      p99: percentile(s.latencies, 99),
      ok: s.ok,
      retried: s.retried,
      errors: s.errors,
      wrong: s.wrong,
      notes: Object.fromEntries(s.notes),
    };
  }
  const seen = [...tasks.values()];
  return {
    seconds: (loadEnded - runStarted) / 1000,
    requests,
    kinds,
    queueWait,
    sse: {
      ...sse,
      tasksSeenBySse: seen.filter((t) => t.seenBy === 'sse').length,
      tasksSeenByPoll: seen.filter((t) => t.seenBy === 'poll').length,
    },
    peakRssMb: peak,
    readsByMinute: [...new Set(reads.map((r) => Math.floor((r.at - runStarted) / 60_000)))]
      .sort((a, b) => a - b)
      .map((minute) => {
        const ms = reads.filter((r) => Math.floor((r.at - runStarted) / 60_000) === minute).map((r) => r.ms);
        return { minute, count: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) };
      }),
    cpuSeconds: {
      ...Object.fromEntries(
        [...cpuTicks].map(([name, byPid]) => [
          name,
          Math.round([...byPid.values()].reduce((a, b) => a + b, 0) / 100),
        ]),
      ),
      load: Math.round(((u) => (u.user + u.system) / 1e6)(process.cpuUsage(cpuAtStart))),
    },
    faults,
    final,
    settleMs,
  };
}

/** Every process: its parent, name, and CPU ticks (utime + stime + cutime + cstime). */
function processTable(): Map<number, { ppid: number; name: string; ticks: number }> {
  const table = new Map<number, { ppid: number; name: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      table.set(Number(entry), {
        ppid: Number(fields[1]),
        name: stat.slice(stat.indexOf('(') + 1, close),
        ticks: fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0),
      });
    } catch {
      // gone
    }
  }
  return table;
}

/** Names of a process's direct children. */
function childNames(pid: number): string[] {
  return [...processTable().values()].filter((p) => p.ppid === pid).map((p) => p.name);
}

/** The report as text, for the bench and the test's log. */
export function formatReport(report: LoadReport, users: number): string {
  const lines: string[] = [];
  lines.push(
    `${users} users for ${report.seconds.toFixed(0)} s: ${report.requests} calls, ${(report.requests / report.seconds).toFixed(1)} calls/s`,
  );
  lines.push('kind                      count   p50 ms   p99 ms   ok  retried errors wrong');
  for (const [kind, k] of Object.entries(report.kinds).sort()) {
    lines.push(
      `${kind.padEnd(24)} ${String(k.count).padStart(6)} ${String(k.p50).padStart(8)} ${String(k.p99).padStart(8)} ${String(k.ok).padStart(5)} ${String(k.retried).padStart(7)} ${String(k.errors).padStart(6)} ${String(k.wrong).padStart(5)}`,
    );
    for (const [note, n] of Object.entries(k.notes)) lines.push(`    ${n} × ${note}`);
  }
  lines.push(
    `reads (${READ_KINDS.join(', ')}) by minute, p50/p99 ms: ${report.readsByMinute
      .map((m) => `${m.minute}: ${m.p50}/${m.p99} (n=${m.count})`)
      .join('; ')}`,
  );
  lines.push('queue wait (task created → first stage started):');
  for (const [tool, q] of Object.entries(report.queueWait))
    lines.push(`  ${tool.padEnd(16)} n=${q.count} p50 ${q.p50} ms, p99 ${q.p99} ms, max ${q.max} ms`);
  const s = report.sse;
  lines.push(
    `SSE: ${s.streams} streams opened, ${s.cleanEnds} ended cleanly by the server, ${s.cutOff} cut off, ${s.reconnects} reconnects with Last-Event-ID; task ends seen by SSE ${s.tasksSeenBySse}, by polling ${s.tasksSeenByPoll}`,
  );
  lines.push(
    `peak RSS (MiB): ${Object.entries(report.peakRssMb)
      .sort()
      .map(([n, mb]) => `${n} ${mb}`)
      .join(', ')}`,
  );
  lines.push(
    `CPU seconds: ${Object.entries(report.cpuSeconds)
      .sort()
      .map(([n, s]) => `${n} ${s}`)
      .join(', ')}`,
  );
  lines.push('faults:');
  for (const f of report.faults) {
    lines.push(
      `  ${f.fault.padEnd(17)} service back ${f.serviceRecoveryMs ?? 'never'} ms, in-flight tasks settled ${f.tasksSettledMs ?? 'never'} ms, violations ${f.invariants.violations.length} — ${f.detail}`,
    );
    for (const v of f.invariants.violations.slice(0, 5)) lines.push(`      ! ${v}`);
  }
  const fi = report.final;
  lines.push(
    `final (settled in ${report.settleMs} ms): tasks ${fi.tasks.tracked} (succeeded ${fi.tasks.succeeded}, failed ${fi.tasks.failed}, open ${fi.tasks.open}); holds open ${fi.holds.open}; uploads completed ${fi.uploads.completed}, resumable ${fi.uploads.resumable}, completed with the answer lost ${fi.uploads.answerLost}; ${fi.users} users' ledgers; violations ${fi.violations.length}`,
  );
  for (const v of fi.violations.slice(0, 20)) lines.push(`  ! ${v}`);
  return lines.join('\n');
}

export const randomSuffix = () => randomBytes(3).toString('hex');
