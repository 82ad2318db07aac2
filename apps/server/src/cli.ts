import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { QuestionnaireStatus, UserType } from '@vw/contract';
import { systemClock } from './clock.ts';
import { ensureDataDir, loadConfig } from './config.ts';
import { type AppContext, createContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import {
  EngineCommandError,
  engineInstall,
  engineList,
  engineRemove,
  engineReport,
  engineVerify,
} from './engines.cli.ts';
import { createLogger } from './logger.ts';
import { toAccountKey } from './modules/accounts/account-key.ts';
import { findUserByAccount, findUserById } from './modules/accounts/accounts.repo.ts';
import { liftRefusal, refuseAccount } from './modules/accounts/accounts.service.ts';
import { activityReport } from './modules/analytics/analytics.service.ts';
import { DAY_MS } from './modules/credits/calendar.ts';
import { grantCredits } from './modules/credits/ledger.service.ts';
import { getTenantBonus, grantMembership } from './modules/credits/membership.service.ts';
import { runFeaturesCommand } from './modules/features/features.cli.ts';
import { notifyUser } from './modules/notifications/notifications.service.ts';
import { switchQuestionnaireStatus } from './modules/onboarding/onboarding.repo.ts';
import {
  getQuestionnaire,
  setQuestionnaire,
  summarizeResponses,
} from './modules/onboarding/onboarding.service.ts';
import { editProduct, findAllProducts, toProduct } from './modules/payments/catalogue.ts';
import { findOrders } from './modules/payments/orders.repo.ts';
import { reconcilePayments } from './modules/payments/orders.service.ts';
import {
  createRedeemBatch,
  listRedeemBatches,
  listRedeemCodes,
  voidRedeemBatch,
} from './modules/redeem/redeem.service.ts';
import { prepareDatabase } from './modules/seeds.ts';
import {
  findSettings,
  isSettingKey,
  runtimeSettings,
  updateSetting,
} from './modules/settings/settings.service.ts';

const USAGE = `Operator commands (npm run admin -- …), run with the server's environment (DATA_DIR / DATABASE_URL):
  settings list                          show every runtime setting
  settings set KEY VALUE                 change one (VALUE as JSON, e.g. true); keys: ${Object.keys(runtimeSettings).join(', ')}
  redeem create --level N (--months N | --days N) [--annual] --count N [--valid-days 90] [--note T]
  redeem create --credits N --count N [--valid-days 90] [--note T]
                                         prints one new code per line
  redeem list [--batch ID]               batches (or the codes of one batch)
  redeem void --batch ID                 makes a batch's unused codes invalid
  credits grant --user U --amount N [--source gift|topup|refund] [--days 30] [--note T]
  plan set --user U --level N (--months N | --days N) [--annual]
  ledger --user U                        plan, balance, lots and ledger entries of a user
  products list                          the catalogue with prices (yuan) and state
  products set ID [--title T] [--price YUAN] [--pay YUAN] [--credits N] [--tags a,b] [--features a,b]
                  [--enable | --disable]    edits a product (--price list price, --pay what buyers pay)
  orders list [--user U] [--status N]    latest orders (100 pending, 102 closed, 200 paid, 400 failed, 403 paid twice)
  orders reconcile                       asks the providers about open orders now; retries failed refunds
  questionnaire show                     the persona questionnaire as JSON (the shape \`set\` reads)
  questionnaire set FILE                 replaces it from a JSON file (ids unique; select_type 1 single, 2 multiple)
  questionnaire stats                    responses, trials granted and answers per option
  questionnaire skip --user U            marks a pending survey as skipped (status 3: no survey, no trial)
  analytics stats [--days 7] [--top 10]  daily active users, visitors and the most frequent events
  notify test --user U                   sends a test Web Push notification to the user's browsers
  users show --user U                    type, refusal, password lock and cancellation of an account
  users refuse --user U --reason T       refuses the account (type 1): every request, key and sign-in
                                         is refused within a second; sessions and keys are kept
  users unrefuse --user U                lifts the refusal (type 2 again)
  features show --user U                 the user's feature switches (video_translate, subtitle_erase, …) and why
  features set --user U --feature F (--on | --off | --default)
                                         overrides one switch for the user (--default: back to the plan's)
  engines                                which engines run, and what to set or install for those that do not
                                         (users are only told 「暂未开放，请联系管理员」)
  engines list                           every model of the catalogue: state, size, licence, what it enables
  engines install ID… | --recommended    downloads (resumable), checks sha256, unpacks and registers models;
                                         a model whose licence is not permissive installs only when named
                                         (mirror: ENGINES_BASE_URL; folder: SHERPA_ONNX_MODELS_DIR or DATA_DIR/models)
  engines remove ID                      unregisters a model and deletes its files (shared files stay)
  engines verify                         checks the files of installed models (sizes, sha256 where known)
U is a phone number, an e-mail address or a user id.`;

type Options = Record<string, string | boolean | undefined>;

const OPTIONS = {
  level: { type: 'string' },
  months: { type: 'string' },
  days: { type: 'string' },
  annual: { type: 'boolean' },
  count: { type: 'string' },
  'valid-days': { type: 'string' },
  note: { type: 'string' },
  credits: { type: 'string' },
  batch: { type: 'string' },
  user: { type: 'string' },
  amount: { type: 'string' },
  source: { type: 'string' },
  title: { type: 'string' },
  price: { type: 'string' },
  pay: { type: 'string' },
  tags: { type: 'string' },
  features: { type: 'string' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  status: { type: 'string' },
  top: { type: 'string' },
  reason: { type: 'string' },
  feature: { type: 'string' },
  on: { type: 'boolean' },
  off: { type: 'boolean' },
  default: { type: 'boolean' },
  recommended: { type: 'boolean' },
} as const;

class UsageError extends Error {}

function int(options: Options, name: string, fallback?: number): number | undefined {
  const raw = options[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number`);
  return n;
}

function yuan(options: Options, name: string): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be an amount in yuan`);
  return Math.round(n * 100) / 100;
}

const list = (options: Options, name: string) =>
  typeof options[name] === 'string' ? (options[name] as string).split(',').map((s) => s.trim()) : undefined;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

async function findUser(ctx: AppContext, ref: string) {
  const user = ref.startsWith('u_')
    ? await findUserById(ctx.db, ref)
    : await findUserByAccount(ctx.db, toAccountKey(ref));
  if (!user) throw new UsageError(`no user ${ref}`);
  return user;
}

const date = (ms: number | null) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '-');

/**
 * Every command, by `group verb` (or by group alone when the group is one command, like `ledger`):
 * the positional words after the key and the options.
 */
type Command = (ctx: AppContext, options: Options, words: string[]) => Promise<void>;
const COMMANDS: Record<string, Command> = {
  'settings list': async (ctx) => {
    for (const [k, v] of Object.entries(await findSettings(ctx))) console.log(`${k} = ${JSON.stringify(v)}`);
  },
  'settings set': async (ctx, _options, [key, value]) => {
    if (!key || value === undefined || !isSettingKey(key))
      throw new UsageError(`unknown setting "${key ?? ''}"`);
    console.log(`${key} = ${JSON.stringify(await updateSetting(ctx, key, value))}`);
  },
  'redeem create': async (ctx, options) => {
    const { codes } = await createRedeemBatch(ctx, {
      kind: options.credits ? 'credits' : 'plan',
      level: int(options, 'level'),
      isAnnual: Boolean(options.annual),
      months: int(options, 'months'),
      days: int(options, 'days'),
      credits: int(options, 'credits'),
      count: required(int(options, 'count', 1), 'count'),
      validDays: int(options, 'valid-days', 90)!,
      note: options.note as string | undefined,
    });
    console.log(codes.join('\n'));
  },
  'redeem list': async (ctx, options) => {
    if (options.batch) {
      for (const c of await listRedeemCodes(ctx, String(options.batch))) {
        console.log(`${c.code}  ${c.used_by ? `used by ${c.used_by} at ${date(c.used_at)}` : 'unused'}`);
      }
    } else {
      for (const b of await listRedeemBatches(ctx)) {
        const what =
          b.kind === 'credits'
            ? `${b.credits} credits`
            : `level ${b.level} ${b.months ? `${b.months} months` : `${b.days} days`}${b.is_annual ? ' annual' : ''}`;
        console.log(
          `${b.id}  ${what}  used ${b.used}/${b.count}  redeemable until ${date(b.expires_at)}${b.voided_at ? '  VOID' : ''}  ${b.note}`,
        );
      }
    }
  },
  'redeem void': async (ctx, options) => {
    console.log(
      (await voidRedeemBatch(ctx, required(options.batch as string, 'batch')))
        ? 'voided'
        : 'no such open batch',
    );
  },
  'credits grant': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const source = (options.source as 'gift' | 'topup' | 'refund' | undefined) ?? 'gift';
    if (!['gift', 'topup', 'refund'].includes(source))
      throw new UsageError('--source must be gift, topup or refund');
    const days = int(options, 'days', source === 'topup' ? 730 : 30)!;
    const lot = await grantCredits(ctx, {
      userId: user.id,
      source,
      amount: required(int(options, 'amount'), 'amount'),
      expiresAt: ctx.clock.now() + days * DAY_MS,
      grantKey: `operator:${ctx.clock.now()}:${user.id}`,
      remark: (options.note as string | undefined) ?? '运营发放',
    });
    console.log(`granted ${lot.amount} (${lot.source}) to ${user.id}, expires ${date(lot.expires_at)}`);
  },
  'plan set': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const account = await grantMembership(ctx, {
      userId: user.id,
      level: required(int(options, 'level'), 'level'),
      isAnnual: Boolean(options.annual),
      months: int(options, 'months'),
      days: int(options, 'days'),
    });
    console.log(`${user.id} is on level ${account.level} until ${date(account.expires_at)}`);
  },
  ledger: async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const bonus = await getTenantBonus(ctx, user.id);
    console.log(`${user.id}  ${bonus.title} (level ${bonus.level}) until ${date(bonus.expired_time * 1000)}`);
    console.log(
      `balance ${bonus.credit_balance}, held ${bonus.held_credits}, credit_type ${bonus.credit_type}`,
    );
    const lots = await ctx.db
      .selectFrom('credit_lots')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    for (const l of lots) {
      console.log(
        `  lot ${l.id}  ${l.source}  ${l.remaining}/${l.amount}  ${date(l.effective_at)} → ${date(l.expires_at)}  ${l.remark}`,
      );
    }
    const entries = await ctx.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    for (const e of entries)
      console.log(`  ${date(e.created_at)}  ${e.kind.padEnd(7)} ${String(e.delta).padStart(7)}  ${e.lot_id}`);
  },
  'products list': async (ctx) => {
    for (const row of await findAllProducts(ctx.db)) {
      const p = toProduct(row);
      const cn = p.channel_details.find((d) => d.country_code === 'CN');
      const what =
        p.product_type === 1
          ? `${p.recharge_credit} credits`
          : `level ${p.level}${p.is_annual ? ' annual' : ''}`;
      console.log(
        `${p.product_id.padEnd(20)} ${what.padEnd(18)} ¥${cn?.discount_price ?? '-'} (list ¥${cn?.price ?? '-'})  ${p.title}${row.is_disabled ? '  DISABLED' : ''}`,
      );
    }
  },
  'products set': async (ctx, options, [id]) => {
    if (!id) throw new UsageError('products set needs a product id');
    const row = await editProduct(
      ctx.db,
      id,
      {
        title: options.title as string | undefined,
        price: yuan(options, 'price'),
        pay: yuan(options, 'pay'),
        recharge_credit: int(options, 'credits'),
        tags: list(options, 'tags'),
        desList: list(options, 'features'),
        disabled: options.disable ? true : options.enable ? false : undefined,
      },
      ctx.clock.now(),
    ).catch((err: Error) => {
      throw new UsageError(err.message);
    });
    console.log(`${row.product_id} updated: ${row.channel_details}`);
  },
  'orders list': async (ctx, options) => {
    const user = options.user ? await findUser(ctx, String(options.user)) : undefined;
    for (const o of await findOrders(ctx.db, {
      userId: user?.id,
      status: int(options, 'status'),
      limit: 50,
    })) {
      console.log(
        `${o.id}  ${date(o.created_at)}  ${o.user_id}  ${o.product_id}  ${o.pay_channel}/${o.provider}  ¥${o.amount_fen / 100}  status ${o.status}${o.failure ? `  (${o.failure})` : ''}`,
      );
    }
  },
  'orders reconcile': async (ctx) => {
    const done = await reconcilePayments(ctx);
    console.log(`checked ${done.orders} open orders, retried ${done.refunds} refunds`);
  },
  'questionnaire show': async (ctx) => {
    console.log(JSON.stringify(await getQuestionnaire(ctx), null, 2));
  },
  'questionnaire set': async (ctx, _options, [file]) => {
    if (!file) throw new UsageError('questionnaire set needs a JSON file');
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const questions = await setQuestionnaire(ctx, json).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    console.log(`questionnaire replaced: ${questions.length} questions`);
  },
  'questionnaire stats': async (ctx) => {
    const { responses, trials, counts } = await summarizeResponses(ctx);
    console.log(`responses ${responses}, trials granted ${trials}`);
    for (const q of await getQuestionnaire(ctx)) {
      console.log(`${q.id}. ${q.question_content}`);
      for (const o of q.question_options)
        console.log(`   ${String(counts.get(o.id) ?? 0).padStart(6)}  ${o.content}`);
    }
  },
  'questionnaire skip': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const done = await switchQuestionnaireStatus(
      ctx.db,
      user.id,
      QuestionnaireStatus.Pending,
      QuestionnaireStatus.Skipped,
      ctx.clock.now(),
    );
    console.log(done ? `${user.id}: survey skipped` : `${user.id}: no pending survey`);
  },
  'analytics stats': async (ctx, options) => {
    const days = int(options, 'days', 7)!;
    if (days < 1) throw new UsageError('--days must be at least 1');
    const report = await activityReport(ctx, days, int(options, 'top', 10));
    console.log('day         users  visitors  events');
    for (const d of report.daily) {
      console.log(
        `${d.day}  ${String(d.users).padStart(5)}  ${String(d.visitors).padStart(8)}  ${String(d.events).padStart(6)}`,
      );
    }
    console.log(`top events (last ${days} days):`);
    for (const e of report.top) console.log(`  ${String(e.count).padStart(7)}  ${e.event}`);
  },
  'notify test': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const { sent, failed } = await notifyUser(ctx, user.id, {
      title: '声音工作台',
      body: '通知已开启：任务完成时会在这里提醒您',
    });
    console.log(`sent ${sent}, failed ${failed}`);
  },
  'users show': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    console.log(
      `${user.id}  type ${user.type}${user.type === UserType.Refused ? ` (refused ${date(user.refused_at)}: ${user.refused_reason ?? ''})` : ''}  ${user.phone ?? ''} ${user.email ?? ''}`,
    );
    console.log(`password failures ${user.password_failures}, next try ${date(user.password_retry_at)}`);
  },
  'users refuse': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const reason = String(required(options.reason, 'reason')).trim();
    if (!reason) throw new UsageError('--reason must say why');
    await refuseAccount(ctx, user.id, reason);
    console.log(`${user.id} refused: ${reason}`);
  },
  'users unrefuse': async (ctx, options) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    await liftRefusal(ctx, user.id);
    console.log(`${user.id}: refusal lifted`);
  },
  engines: async (ctx) => {
    for (const line of await engineReport(ctx.config)) console.log(line);
  },
  'engines list': async (ctx) => {
    for (const line of await engineList(ctx.config)) console.log(line);
  },
  'engines install': async (ctx, options, ids) => {
    const report = await engineInstall(
      ctx.config,
      { ids, recommended: Boolean(options.recommended) },
      (line) => console.log(line),
    ).catch((error: Error) => {
      throw error instanceof EngineCommandError ? new UsageError(error.message) : error;
    });
    if (report.status === 'offline')
      // The reason names the host: the release downloads (ENGINES_BASE_URL), or where LaMa is published.
      throw new Error(
        `offline: ${report.message} (ENGINES_BASE_URL can name a mirror of the sherpa-onnx releases)`,
      );
    if (report.status !== 'done') throw new Error(report.message ?? report.status);
    if (report.failed.length) throw new Error(`not installed: ${report.failed.map((f) => f.id).join(', ')}`);
  },
  'engines remove': async (ctx, _options, [id]) => {
    if (!id) throw new UsageError('engines remove needs a model id');
    await engineRemove(ctx.config, id, (line) => console.log(line));
  },
  'engines verify': async (ctx) => {
    if (!(await engineVerify(ctx.config, (line) => console.log(line))))
      throw new Error('some installed models failed the check: engines install them again');
  },
  features: async (ctx, options, [verb]) => {
    const user = await findUser(ctx, required(options.user as string, 'user'));
    const lines = await runFeaturesCommand(ctx, verb, user.id, options).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    for (const line of lines) console.log(line);
  },
};

async function run(ctx: AppContext, words: string[], options: Options): Promise<void> {
  const [group, verb] = words;
  const byVerb = `${group} ${verb}`;
  if (Object.hasOwn(COMMANDS, byVerb)) return COMMANDS[byVerb]!(ctx, options, words.slice(2));
  if (group && Object.hasOwn(COMMANDS, group)) return COMMANDS[group]!(ctx, options, words.slice(1));
  throw new UsageError(`unknown command "${[group, verb].filter(Boolean).join(' ')}"`);
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    options: OPTIONS,
    allowPositionals: true,
  });
  const config = loadConfig();
  ensureDataDir(config);
  const database = openDatabase(config.database);
  try {
    await prepareDatabase(database.db);
    const ctx = createContext({ config, database, clock: systemClock, log: createLogger('warn') });
    await run(ctx, positionals, values);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
