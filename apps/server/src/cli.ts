import { systemClock } from './clock.ts';
import { ensureDataDir, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createLogger } from './logger.ts';
import {
  findSettings,
  isSettingKey,
  runtimeSettings,
  updateSetting,
} from './modules/settings/settings.service.ts';

const USAGE = `Operator commands (same environment as the server):
  settings list                 show every runtime setting
  settings set KEY VALUE        change one (VALUE as JSON, e.g. true)
Keys: ${Object.entries(runtimeSettings)
  .map(([k, d]) => `${k} (${d.description})`)
  .join(', ')}`;

async function run(args: string[]): Promise<number> {
  const [group, verb, key, value] = args;
  if (group !== 'settings' || !['list', 'set'].includes(verb ?? '')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  ensureDataDir(config);
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    const ctx = createContext({ config, database, clock: systemClock, log: createLogger('warn') });
    if (verb === 'set') {
      if (!key || value === undefined || !isSettingKey(key)) {
        console.error(`Unknown setting "${key ?? ''}".\n${USAGE}`);
        return 2;
      }
      console.log(`${key} = ${JSON.stringify(await updateSetting(ctx, key, value))}`);
    } else {
      for (const [k, v] of Object.entries(await findSettings(ctx)))
        console.log(`${k} = ${JSON.stringify(v)}`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
