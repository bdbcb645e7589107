import { NOTIFICATION_SETTINGS_DEFAULTS, type DirectBudget } from '@bdms/shared';
import type { Db } from '../db/client';
import type { DailyCounters, DailyTake } from './daily-counters';
import { readNotificationSettings } from './notification-settings';

/**
 * The daily budgets of what goes to phones outside the alerts (issue #32 item 8): one-time codes
 * (every number and purpose together) and the answers to SMS/WhatsApp replies (every sender
 * together). The per-number ceilings (lib/auth-limits.ts) stop the flooding of one number; these
 * stop a spread-out attacker from running up the bill with many numbers. Each is counted in
 * PostgreSQL (daily_counters: one upsert that only counts while below the budget, so parallel
 * requests cannot get past it together), per calendar day in India, and set by the
 * administrators (`phoneCodeDailyBudget`, `replyAnswerDailyBudget` in the notification settings).
 */
export const DIRECT_BUDGETS = {
  codes: { key: 'direct-budget:phone-codes', setting: 'phoneCodeDailyBudget' },
  answers: { key: 'direct-budget:reply-answers', setting: 'replyAnswerDailyBudget' },
} as const;
export type DirectBudgetName = keyof typeof DIRECT_BUDGETS;

/** The administrators are told once a day when this share of a budget is spent. */
export const BUDGET_WARNING_SHARE = 0.8;

/** The count at which the warning goes: the first take at or past 80 % (at least 1). */
export function warningCount(budget: number): number {
  return Math.max(1, Math.ceil(budget * BUDGET_WARNING_SHARE));
}

export interface DirectBudgetsDeps {
  db: Db;
  counters: DailyCounters;
  /** Tells the administrators (in-app), in `tx`: wired to the notifier in services.ts. */
  onNearBudget?: (tx: Db, name: DirectBudgetName, sent: number, budget: number) => Promise<void>;
}

export function createDirectBudgets(deps: DirectBudgetsDeps) {
  async function budgetOf(name: DirectBudgetName, db: Db = deps.db): Promise<number> {
    const settings = await readNotificationSettings(db);
    const setting = DIRECT_BUDGETS[name].setting;
    return settings[setting] ?? NOTIFICATION_SETTINGS_DEFAULTS[setting] ?? 0;
  }

  return {
    budgetOf,

    /**
     * Takes one message from today's budget `name` (in `tx` when given, so a rolled-back request
     * gives it back). Exactly at 80 % the administrators are told (the count passes that value
     * once a day, so they are told once).
     */
    async take(name: DirectBudgetName, tx?: Db): Promise<DailyTake> {
      const db = tx ?? deps.db;
      const budget = await budgetOf(name, db);
      const taken = await deps.counters.take(DIRECT_BUDGETS[name].key, budget, tx);
      if (taken.allowed && taken.count === warningCount(budget) && deps.onNearBudget) {
        await deps.onNearBudget(db, name, taken.count, budget);
      }
      return taken;
    },

    /** Whether today's budget `name` is already spent (a read: it takes nothing). */
    async isSpent(name: DirectBudgetName): Promise<boolean> {
      const budget = await budgetOf(name);
      return (await deps.counters.count(DIRECT_BUDGETS[name].key)) >= budget;
    },

    /** Today's figure and the budget, for the channels panel. */
    async today(name: DirectBudgetName): Promise<DirectBudget> {
      const [sentToday, dailyBudget] = await Promise.all([
        deps.counters.count(DIRECT_BUDGETS[name].key),
        budgetOf(name),
      ]);
      return { sentToday, dailyBudget };
    },
  };
}

export type DirectBudgets = ReturnType<typeof createDirectBudgets>;
