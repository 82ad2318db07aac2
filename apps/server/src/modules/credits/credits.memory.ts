import type { Db } from '../../db/database.ts';
import { perDatabase } from '../../db/local-state.ts';
import type { CreditHold } from '../../db/schema.ts';
import type { CreditState, HoldWithLots, PlannedHold } from './credits.repo.ts';

const KEPT = 10_000;

/**
 * What this process learnt from its own writes to credits, per database, so that the next step on
 * PostgreSQL (where every statement is a round trip) needs no read first. Only ever a hint that
 * the write checks: a remembered open hold is settled by compare-and-set on its status, and a
 * remembered account state is written against only while the account is at that version.
 */
class CreditMemory {
  /** Holds written and not yet settled, with what they drew (neither ever changes). */
  private readonly openHolds = new Map<string, HoldWithLots>();
  /** Account states by user: the account row and every lot not yet expired, at `account.version`. */
  private readonly accounts = new Map<string, CreditState>();

  takeOpenHold(holdKey: string): HoldWithLots | undefined {
    const hold = this.openHolds.get(holdKey);
    this.openHolds.delete(holdKey);
    return hold;
  }

  account(userId: string): CreditState | undefined {
    return this.accounts.get(userId);
  }

  forget(userId: string): void {
    this.accounts.delete(userId);
  }

  /**
   * A hold was written (committed). Planned from `state` without a lock, it bumped the account's
   * version once and the new state is known; otherwise the account state is not.
   */
  held({ hold, draws }: PlannedHold, state?: CreditState): CreditHold {
    keep(this.openHolds, hold.hold_key, { hold, lots: [...draws].reverse() });
    if (!state) {
      this.accounts.delete(hold.user_id);
      return hold;
    }
    const drawn = new Map(draws.map((d) => [d.lot_id, d.amount]));
    keep(this.accounts, hold.user_id, {
      account: { ...state.account, version: state.account.version + 1 },
      lots: state.lots.map((lot) =>
        drawn.has(lot.id) ? { ...lot, remaining: lot.remaining - drawn.get(lot.id)! } : lot,
      ),
    });
    return hold;
  }

  /**
   * A settlement gave `back` to lots and left the account at `version`. The state stays known only
   * if the settlement was the one write since it was learnt.
   */
  settled(userId: string, version: number | null, back: Array<{ lot_id: string; amount: number }>): void {
    const known = this.accounts.get(userId);
    const returned = new Map(back.map((b) => [b.lot_id, b.amount]));
    if (
      !known ||
      version !== known.account.version + 1 ||
      back.some((b) => !known.lots.some((lot) => lot.id === b.lot_id))
    ) {
      this.accounts.delete(userId);
      return;
    }
    keep(this.accounts, userId, {
      account: { ...known.account, version },
      lots: known.lots.map((lot) =>
        returned.has(lot.id) ? { ...lot, remaining: lot.remaining + returned.get(lot.id)! } : lot,
      ),
    });
  }
}

/** Sets a key as the newest entry, forgetting the oldest beyond the bound. */
function keep<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
}

const memories = perDatabase<CreditMemory>();

/** This process's memory of the credits in one database (local-state.ts). */
export function creditMemory(db: Db): CreditMemory {
  return memories(db, () => new CreditMemory());
}
