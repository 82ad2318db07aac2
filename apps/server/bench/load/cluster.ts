/**
 * The scale-out cluster on loopback: nginx (deploy/nginx/voice-workbench.conf) in front of API
 * processes, worker processes, PostgreSQL, Redis and an S3-compatible store (s3rver). Used by
 * `npm run cluster`, `npm run bench:load` and the fault test; every piece can be stopped, killed
 * and restarted by the fault harness. Ports: base (nginx), base+1.. (APIs), base+10 (Redis),
 * base+11 (PostgreSQL), base+12 (S3).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type Proc, ROOT, spawnLogged, spawnRole, stop, waitForHttp, waitUntil } from './processes.ts';

export interface ClusterOptions {
  basePort: number;
  /** A folder of this run (logs, data, configs); removed by the caller. */
  dir: string;
  /** Use the machine's PostgreSQL/Redis when they answer (npm run cluster); otherwise private ones (faults restart them). */
  machineServices?: boolean;
  apis?: number;
  workers?: number;
  /** Extra environment of the server processes. */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface Service {
  name: string;
  /** Stops it (SIGTERM, or `immediate` for a crash). */
  stop(mode?: 'clean' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Peak resident memory of the process in KiB (VmHWM), when it is ours and alive. */
  pid(): number | null;
}

export interface Cluster {
  url: string;
  env: Record<string, string>;
  pgUrl: string;
  redisUrl: string;
  prefix: string;
  apis: Proc[];
  workers: Proc[];
  apiPort(i: number): number;
  startApi(i: number): Promise<Proc>;
  startWorker(i: number): Proc;
  postgres: Service;
  redis: Service;
  s3: Service;
  nginx: Service;
  /** Every live process by name: for the memory figures. */
  pids(): Record<string, number>;
  close(): Promise<void>;
}

const PG_BIN = () => {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(a) - Number(b)) : [];
  if (versions.length === 0) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return path.join(base, versions.at(-1)!, 'bin');
};
const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb refuses root). */
function asPostgres(cmd: string, args: string[]): void {
  if (isRoot) {
    const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'ignore' });
  } else execFileSync(cmd, args, { stdio: 'ignore' });
}

async function answers(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch {
    return false;
  }
}

async function privatePostgres(
  dir: string,
  port: number,
  log: (l: string) => void,
): Promise<Service & { url: string }> {
  const bin = PG_BIN();
  const data = path.join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (isRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  asPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust']);
  const ctl = (args: string[]) => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = async () => {
    ctl([
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
      '-l',
      path.join(dir, 'log'),
      '-w',
      'start',
    ]);
  };
  await start();
  log(`PostgreSQL (private) on 127.0.0.1:${port}, data in ${data}`);
  const pidFile = path.join(data, 'postmaster.pid');
  return {
    name: 'postgres',
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop(mode = 'clean') {
      ctl(['-m', mode === 'immediate' ? 'immediate' : 'fast', '-w', 'stop']);
    },
    start,
    pid: () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null),
  };
}

function privateRedis(dir: string, port: number, log: (l: string) => void): Service & { url: string } {
  mkdirSync(dir, { recursive: true });
  let proc: Proc | null = null;
  const start = async () => {
    // Append-only file: queued jobs live in Redis and must survive its restart.
    proc = spawnLogged(
      'redis',
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
      ],
      { logFile: path.join(dir, 'redis.log') },
    );
    await waitUntil(
      'redis to answer',
      async () => {
        const r = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
        r.on('error', () => {});
        try {
          await r.connect();
          return (await r.ping()) === 'PONG';
        } finally {
          r.disconnect();
        }
      },
      20_000,
    );
  };
  log(`Redis (private, appendonly) on 127.0.0.1:${port}`);
  return {
    name: 'redis',
    url: `redis://127.0.0.1:${port}`,
    async stop(mode = 'clean') {
      if (proc) await stop(proc, mode === 'immediate' ? 'SIGKILL' : 'SIGTERM');
    },
    start,
    pid: () => (proc?.alive() ? proc.child.pid! : null),
  };
}

function s3Store(dir: string, port: number, bucket: string): Service {
  mkdirSync(dir, { recursive: true });
  let proc: Proc | null = null;
  return {
    name: 's3',
    async start() {
      proc =
        spawnRole === undefined
          ? null
          : spawnLogged(
              's3',
              process.execPath,
              ['--import', 'tsx', path.join(import.meta.dirname, 's3-server.ts'), dir, String(port), bucket],
              { logFile: path.join(dir, '..', 'logs', 's3.log') },
            );
      await waitUntil(
        's3rver to answer',
        async () => answers(() => fetch(`http://127.0.0.1:${port}/`)),
        30_000,
      );
    },
    async stop(mode = 'clean') {
      if (proc) await stop(proc, mode === 'immediate' ? 'SIGKILL' : 'SIGTERM');
    },
    pid: () => (proc?.alive() ? proc.child.pid! : null),
  };
}

/** The shipped nginx site with this cluster's listen address and upstream servers, in a private prefix. */
function nginxInstance(dir: string, port: number, apiPorts: number[]): Service {
  const site = readFileSync(path.join(ROOT, 'deploy/nginx/voice-workbench.conf'), 'utf8')
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/(upstream vw_api \{)([\s\S]*?)( {4}keepalive)/, (_m, open, body: string, keep) => {
      const opts = /max_fails=\S+ fail_timeout=\S+;/.exec(body)?.[0] ?? ';';
      return `${open}\n${apiPorts.map((p) => `    server 127.0.0.1:${p} ${opts}`).join('\n')}\n${keep}`;
    });
  for (const sub of ['temp', 'logs']) mkdirSync(path.join(dir, sub), { recursive: true });
  // Worker processes run as nobody when nginx starts as root: they must write the temp folders.
  chmodSync(path.join(dir, 'temp'), 0o777);
  const temp = (name: string) => path.join(dir, 'temp', name);
  const conf = `worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  types { text/html html; }
  default_type application/octet-stream;
${site}
}
`;
  const confFile = path.join(dir, 'nginx.conf');
  writeFileSync(confFile, conf);
  let proc: Proc | null = null;
  return {
    name: 'nginx',
    async start() {
      proc = spawnLogged(
        'nginx',
        'nginx',
        ['-p', dir, '-c', confFile, '-e', path.join(dir, 'logs', 'error.log'), '-g', 'daemon off;'],
        {
          logFile: path.join(dir, 'logs', 'stdout.log'),
        },
      );
      await waitUntil(
        'nginx to listen',
        () => answers(() => fetch(`http://127.0.0.1:${port}/healthz`)),
        20_000,
      );
    },
    async stop(mode = 'clean') {
      if (proc) await stop(proc, mode === 'immediate' ? 'SIGKILL' : 'SIGQUIT');
    },
    pid: () => (proc?.alive() ? proc.child.pid! : null),
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { basePort, dir } = options;
  const log = options.log ?? (() => {});
  const apiCount = options.apis ?? 2;
  const workerCount = options.workers ?? 2;
  const logs = path.join(dir, 'logs');
  mkdirSync(logs, { recursive: true });
  // The private PostgreSQL runs as the postgres user: it must reach its folder inside this one.
  if (isRoot) chmodSync(dir, 0o755);
  const cleanups: Array<() => Promise<unknown>> = [];
  const apiPort = (i: number) => basePort + 1 + i;
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

  try {
    // PostgreSQL: the machine's (a fresh database per run) or a private one.
    let pgAdmin = 'postgres://postgres@127.0.0.1:5432/postgres';
    let postgres: Service;
    const machinePg =
      options.machineServices &&
      (await answers(async () => {
        const c = new pg.Client({ connectionString: pgAdmin, connectionTimeoutMillis: 2000 });
        await c.connect();
        await c.end();
      }));
    if (machinePg) {
      log(`PostgreSQL: the machine's on 127.0.0.1:5432`);
      postgres = { name: 'postgres', stop: async () => {}, start: async () => {}, pid: () => null };
    } else {
      const own = await privatePostgres(path.join(dir, 'pg'), basePort + 11, log);
      pgAdmin = own.url;
      postgres = own;
      cleanups.push(() => own.stop('immediate'));
    }
    const dbName = `vw_cluster_${runId}`;
    const admin = new pg.Client({ connectionString: pgAdmin });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const pgUrl = Object.assign(new URL(pgAdmin), { pathname: `/${dbName}` }).toString();
    if (machinePg) {
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: pgAdmin });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      });
    }

    // Redis likewise; on the machine's, a key prefix of this run (removed at the end).
    const prefix = `vwc-${runId}`;
    let redisUrl = 'redis://127.0.0.1:6379';
    let redis: Service;
    const machineRedis =
      options.machineServices &&
      (await answers(async () => {
        const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
        r.on('error', () => {});
        try {
          await r.connect();
          await r.ping();
        } finally {
          r.disconnect();
        }
      }));
    if (machineRedis) {
      log(`Redis: the machine's on 127.0.0.1:6379 (key prefix ${prefix})`);
      redis = { name: 'redis', stop: async () => {}, start: async () => {}, pid: () => null };
      cleanups.push(async () => {
        const r = new Redis(redisUrl);
        let cursor = '0';
        do {
          const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await r.del(...keys);
        } while (cursor !== '0');
        await r.quit();
      });
    } else {
      const own = privateRedis(path.join(dir, 'redis'), basePort + 10, log);
      await own.start();
      redisUrl = own.url;
      redis = own;
      cleanups.push(() => own.stop('immediate'));
    }

    const bucket = 'vw-media';
    const s3 = s3Store(path.join(dir, 's3'), basePort + 12, bucket);
    await s3.start();
    cleanups.push(() => s3.stop('immediate'));
    log(`S3 (s3rver) on 127.0.0.1:${basePort + 12}, bucket ${bucket}`);

    const env: Record<string, string> = {
      NODE_ENV: 'development',
      ENGINES: 'none',
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${basePort}`,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: pgUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      S3_ENDPOINT: `http://127.0.0.1:${basePort + 12}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      DRAIN_DELAY_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '10000',
      ...options.env,
    };
    const apis: Proc[] = [];
    const workers: Proc[] = [];
    const processEnv = (name: string, extra: Record<string, string>) => {
      const data = path.join(dir, 'data', name);
      mkdirSync(data, { recursive: true });
      return { ...env, DATA_DIR: data, ...extra };
    };
    const startApi = async (i: number) => {
      const proc = spawnRole(
        `api-${i + 1}`,
        'api',
        processEnv(`api-${i + 1}`, { PORT: String(apiPort(i)) }),
        path.join(logs, `api-${i + 1}.log`),
      );
      apis[i] = proc;
      await waitForHttp(`http://127.0.0.1:${apiPort(i)}/readyz`);
      return proc;
    };
    const startWorker = (i: number) => {
      const proc = spawnRole(
        `worker-${i + 1}`,
        'worker',
        processEnv(`worker-${i + 1}`, {}),
        path.join(logs, `worker-${i + 1}.log`),
      );
      workers[i] = proc;
      return proc;
    };
    cleanups.push(async () => {
      await Promise.all([...apis, ...workers].map((p) => stop(p, 'SIGTERM')));
    });
    // The first API migrates the database; the others start after it, so start-up is not a race of migrations.
    await startApi(0);
    for (let i = 1; i < apiCount; i++) await startApi(i);
    for (let i = 0; i < workerCount; i++) startWorker(i);
    log(
      `API processes on ${apis.map((_, i) => `127.0.0.1:${apiPort(i)}`).join(', ')}; ${workerCount} worker processes`,
    );

    const nginx = nginxInstance(
      path.join(dir, 'nginx'),
      basePort,
      apis.map((_, i) => apiPort(i)),
    );
    await nginx.start();
    cleanups.push(() => nginx.stop('clean'));
    log(
      `nginx on http://127.0.0.1:${basePort} (config ${path.join(dir, 'nginx', 'nginx.conf')}); logs in ${logs}`,
    );

    return {
      url: `http://127.0.0.1:${basePort}`,
      env,
      pgUrl,
      redisUrl,
      prefix,
      apis,
      workers,
      apiPort,
      startApi,
      startWorker,
      postgres,
      redis,
      s3,
      nginx,
      pids() {
        const out: Record<string, number> = {};
        for (const p of [...apis, ...workers]) if (p?.alive()) out[p.name] = p.child.pid!;
        for (const s of [postgres, redis, s3, nginx]) {
          const pid = s.pid();
          if (pid) out[s.name] = pid;
        }
        return out;
      },
      async close() {
        for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log(`cleanup: ${err}`));
      },
    };
  } catch (err) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    throw err;
  }
}
