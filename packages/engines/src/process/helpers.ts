import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../errors.ts';
import type { HelperCall, HelperError, HelperOperations, HelperReply } from './serve.ts';
import { deprioritize } from './tool.ts';

/**
 * The one way the engines run work in helper processes (scripts that call serveHelper): the media
 * inspector, espeak synthesis, sherpa recognition and speaker embeddings. A helper's crash costs
 * only its calls, never the server: they fail with the pool's `crashed` error and the next call
 * starts a new helper. Calls get ids, so a helper may run several at once; an idle pool never
 * keeps the server process alive.
 */

export interface HelperCrash {
  /** Exit code or signal. */
  exit: number | string | null;
  /** The tail of the helper's stderr (with `keepStderr`), else ''. */
  stderr: string;
}

export interface HelperPoolOptions {
  /** The helper script (it calls serveHelper). */
  script: URL;
  args?: string[];
  /** Helpers running at once; default 1. */
  size?: number;
  /** Calls one helper runs at once; default 1. */
  callsPerHelper?: number;
  /**
   * A new helper for every call, ended after it, and killed when the call is cancelled (sherpa: a
   * corrupt model aborts the process, diarization blocks its thread; killing is how it stops).
   */
  helperPerCall?: boolean;
  /** Start all `size` helpers now, and replace one that dies at once (else they start on demand). */
  startAll?: boolean;
  /** Niceness of the helpers (and of what they start); default the server's own. */
  nice?: number;
  /** Each helper leads its own process group, so killing it also ends the programs it started. */
  ownGroup?: boolean;
  /** Keep the helper's stderr (its last words, for `crashed`) instead of passing it through. */
  keepStderr?: boolean;
  errors: {
    /** A call whose helper died under it. */
    crashed(crash: HelperCrash): Error;
    /** A cancelled call; default an `aborted` EngineError. */
    aborted?(signal: AbortSignal): Error;
    /** Calls outstanding at close() and calls after it; default as `crashed`. */
    closed?(): Error;
    /** A helper that died before it was ready: every later call fails so (else it is a crash). */
    unavailable?(reason: string): Error;
  };
}

export interface HelperCallOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export interface HelperPool<Ops extends HelperOperations> {
  call<K extends keyof Ops & string>(
    op: K,
    input: Parameters<Ops[K]>[0],
    options?: HelperCallOptions,
  ): Promise<Awaited<ReturnType<Ops[K]>>>;
  /** Resolves once every running helper is set up; rejects when helpers cannot start here. */
  ready(): Promise<void>;
  /** Process ids of the running helpers, in the order calls go to them. */
  pids(): number[];
  /** Fails what is outstanding, ends the helpers and refuses later calls. */
  close(): Promise<void>;
}

interface Helper {
  child: ChildProcess;
  calls: Set<number>;
  ready: Promise<void>;
  started: boolean;
  /** Taken out of service (its one call answered, or it died). */
  retired: boolean;
  refusal?: string;
  stderr: string;
}

interface Call {
  id: number;
  op: string;
  input: unknown;
  helper?: Helper;
  resolve(value: unknown): void;
  reject(error: Error): void;
  options: HelperCallOptions;
  onAbort?: () => void;
}

const STDERR_KEPT = 4096;

const fromWire = ({ code, zh, en, message }: HelperError) =>
  code ? new EngineError(code, zh ?? message, en ?? message) : new Error(message);

export function createHelperPool<Ops extends HelperOperations>(options: HelperPoolOptions): HelperPool<Ops> {
  const { errors, size = 1, callsPerHelper = 1, helperPerCall = false } = options;
  const script = fileURLToPath(options.script);
  const helpers: Helper[] = [];
  const calls = new Map<number, Call>();
  const queue: Call[] = [];
  let nextId = 1;
  let closed = false;
  let failure: Error | null = null;
  const aborted = (signal: AbortSignal) =>
    errors.aborted?.(signal) ?? new EngineError('aborted', '已取消', 'cancelled');
  const closedError = () => errors.closed?.() ?? errors.crashed({ exit: null, stderr: '' });

  // The IPC channel keeps the server alive only while calls are out.
  const holdOpen = (helper: Helper) =>
    helper.calls.size ? helper.child.channel?.ref() : helper.child.channel?.unref();

  const kill = (helper: Helper) => {
    try {
      if (options.ownGroup && helper.child.pid) process.kill(-helper.child.pid, 'SIGKILL');
      else helper.child.kill();
    } catch {
      // Already gone.
    }
  };

  function start(): Helper {
    const child = fork(script, options.args ?? [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: options.keepStderr
        ? ['ignore', 'ignore', 'pipe', 'ipc']
        : ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: options.ownGroup,
    });
    if (options.nice !== undefined) deprioritize(child.pid, options.nice);
    child.unref();
    const helper: Helper = {
      child,
      calls: new Set(),
      ready: Promise.resolve(),
      started: false,
      retired: false,
      stderr: '',
    };
    if (child.stderr) {
      (child.stderr as Socket).unref();
      child.stderr.on('data', (c: Buffer) => {
        helper.stderr = (helper.stderr + c.toString('utf8')).slice(-STDERR_KEPT);
      });
    }
    helper.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (reply: HelperReply) => {
        if ('ready' in reply) {
          helper.started = true;
          resolve();
          dispatch();
        } else if ('unavailable' in reply) helper.refusal = reply.unavailable;
        else if ('progress' in reply) calls.get(reply.id)?.options.onProgress?.(reply.progress);
        else answer(helper, reply);
      });
      // 'close' comes after the last message has been read.
      let gone = false;
      const died = (exit: number | string | null) => {
        if (!gone) reject(ended(helper, exit));
        gone = true;
      };
      child.once('close', (code, signal) => died(code ?? signal));
      child.once('error', () => {
        kill(helper);
        died(null);
      });
    });
    helper.ready.catch(() => {}); // observed through ready() and the calls
    holdOpen(helper);
    return helper;
  }

  /** A helper ended: its calls fail, and it is replaced (or the pool stops when helpers cannot start). */
  function ended(helper: Helper, exit: number | string | null): Error {
    helper.retired = true;
    const index = helpers.indexOf(helper);
    const crash = errors.crashed({ exit, stderr: helper.stderr });
    if (!helper.started && errors.unavailable && !closed) {
      failure = errors.unavailable(helper.refusal ?? `the helper exited with ${exit}`);
      closed = true;
      for (const call of [...calls.values()]) settle(call, failure);
      helpers.splice(0);
      return failure;
    }
    for (const id of helper.calls) {
      const call = calls.get(id);
      if (call) settle(call, crash);
    }
    if (index >= 0) {
      // Replaced at once only when it had started: one that never did is not restarted in a loop.
      if (options.startAll && !closed && helper.started) helpers[index] = start();
      else helpers.splice(index, 1);
    }
    dispatch();
    return crash;
  }

  /** Answers a call. Its helper stays busy with it until the helper answers (or dies). */
  function settle(call: Call, error: Error | null, value?: unknown) {
    calls.delete(call.id);
    const queued = queue.indexOf(call);
    if (queued >= 0) queue.splice(queued, 1);
    if (call.onAbort) call.options.signal?.removeEventListener('abort', call.onAbort);
    if (error) call.reject(error);
    else call.resolve(value);
  }

  function release(helper: Helper, id: number) {
    helper.calls.delete(id);
    holdOpen(helper);
  }

  function answer(helper: Helper, reply: Extract<HelperReply, { id: number }>) {
    release(helper, reply.id);
    const call = calls.get(reply.id);
    // A cancelled call's answer is dropped.
    if ('error' in reply && call) settle(call, fromWire(reply.error));
    else if ('value' in reply && call) settle(call, null, reply.value);
    if (helperPerCall) {
      helper.retired = true;
      helper.child.disconnect();
    }
    dispatch();
  }

  function dispatch() {
    while (queue.length && !closed) {
      let helper = helpers.find((h) => !h.retired && h.child.connected && h.calls.size < callsPerHelper);
      if (!helper && helpers.length < size) {
        helper = start();
        helpers.push(helper);
      }
      if (!helper) return;
      const call = queue.shift() as Call;
      const target = helper;
      call.helper = target;
      target.calls.add(call.id);
      holdOpen(target);
      target.child.send({ id: call.id, op: call.op, input: call.input } satisfies HelperCall, (error) => {
        if (!error) return;
        release(target, call.id);
        if (calls.has(call.id)) settle(call, errors.crashed({ exit: null, stderr: target.stderr }));
      });
    }
  }

  if (options.startAll) for (let i = 0; i < size; i++) helpers.push(start());

  return {
    call(op, input, callOptions = {}) {
      const { signal } = callOptions;
      if (closed) return Promise.reject(failure ?? closedError());
      if (signal?.aborted) return Promise.reject(aborted(signal));
      return new Promise((resolve, reject) => {
        const call: Call = {
          id: nextId++,
          op,
          input,
          resolve: resolve as (value: unknown) => void,
          reject,
          options: callOptions,
        };
        if (signal) {
          call.onAbort = () => {
            // A helper of this call alone stops with it; a shared one finishes the call (staying busy
            // until then) and its answer is dropped.
            if (helperPerCall && call.helper) kill(call.helper);
            settle(call, aborted(signal));
          };
          signal.addEventListener('abort', call.onAbort, { once: true });
        }
        calls.set(call.id, call);
        queue.push(call);
        dispatch();
      });
    },
    async ready() {
      if (failure) throw failure;
      await Promise.all(helpers.map((h) => h.ready));
    },
    pids: () => helpers.filter((h) => !h.retired).map((h) => h.child.pid as number),
    async close() {
      const error = closedError();
      closed = true;
      for (const call of [...calls.values()]) settle(call, error);
      const running = helpers
        .splice(0)
        .filter((h) => h.child.exitCode === null && h.child.signalCode === null);
      // Held open until they are gone: an idle helper is unref'ed, and its exit must still be awaited.
      for (const helper of running) helper.child.ref();
      const exited = running.map((h) => new Promise((resolve) => h.child.once('exit', resolve)));
      for (const helper of running) kill(helper);
      await Promise.all(exited);
    },
  };
}
