import { type Db, migrateToLatest } from '../db/database.ts';
import { seedPlans } from './credits/plans.ts';
import { seedProducts } from './payments/catalogue.ts';
import { seedVoices } from './voices/voices.seed.ts';

/** The reference rows every install needs, each written by the module that owns them. */
const MODULE_SEEDS: Array<(db: Db) => Promise<void>> = [
  seedPlans, // the plan ladder
  seedProducts, // the product catalogue
  seedVoices, // the built-in voices
];

/** Migrations, then every module's seed; safe to run from many processes. */
export async function prepareDatabase(db: Db): Promise<void> {
  await migrateToLatest(db);
  for (const seed of MODULE_SEEDS) await seed(db);
}
