import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, REPO_ROOT } from '../../config.ts';

/** Resolves a configured path the way the rest of the config does (relative to the repository root). */
export function resolveConfigPath(file: string): string {
  return path.resolve(REPO_ROOT, file);
}

/** Reads a file a provider variable names; an unreadable file fails naming the variable. */
export function readConfigFile(variable: string, file: string): string {
  const resolved = resolveConfigPath(file);
  try {
    return readFileSync(resolved, 'utf8');
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${resolved} (${(err as Error).message})`);
  }
}
