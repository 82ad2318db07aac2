/** `npm run cluster`: the scale-out setup on loopback until Ctrl-C; prints where everything runs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster } from './cluster.ts';

const basePort = Number(process.env.CLUSTER_PORT ?? 18900);
const dir = mkdtempSync(path.join(tmpdir(), 'vw-cluster-'));
const log = (line: string) => console.log(`› ${line}`);
log(`working folder ${dir}`);
const cluster = await startCluster({ basePort, dir, machineServices: true, log });
console.log(`\n声音工作台 cluster: ${cluster.url}/workbench/   readiness ${cluster.url}/readyz`);
console.log(`demo account 13800000000 / demo12345. Ctrl-C stops everything this script started.\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
  log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
// A server process that dies on its own is reported (the fault harness kills them on purpose).
for (const proc of [...cluster.apis, ...cluster.workers]) {
  void proc.exited.then((code) => {
    if (!stopping) log(`${proc.name} exited (${code}); see ${path.join(dir, 'logs', `${proc.name}.log`)}`);
  });
}
