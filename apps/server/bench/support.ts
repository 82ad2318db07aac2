/** What the HTTP benchmarks share: a server in its own process, and a signed-in demo account. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs a server script (run by tsx from the repository root) with extra environment. */
export function startProcess(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Resolves once the URL answers at all (any status); gives up after 30 s. */
export async function waitFor(url: string, init?: RequestInit): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(url, init);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer`);
}

/** Signs in as the demo account (seeded outside production) and answers the workbench headers. */
export async function demoHeaders(base: string): Promise<Record<string, string>> {
  const signIn = await fetch(`${base}/accounts/v1/auth_with_password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: '13800000000', password: 'demo12345' }),
  }).then((r) => r.json());
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${signIn.data.secure_tokens.access_token as string}`,
    'x-device-id': 'bench',
    'x-bundle-id': 'com.voiceworkbench.web',
  };
}
