import type { Budgets, CostReport, CostRow, ModelPrice, UsageRecord } from '../../protocol';
import type { JawadDatabase } from '../../db/database';
import { Kept } from '../../db/kept';
import { dayOf, DEFAULT_PRICES, groupCosts } from './cost';

const REPORT_DAYS = 30;
const DAY_MS = 86_400_000;

/** The cost meter: keeps the model calls' usage records, and reads them with the user's prices and budgets. */
export class CostService {
  constructor(
    private readonly db: JawadDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a model call's usage record while the work goes on: an agent step does not wait for
   * IndexedDB. Nothing reads too early — IndexedDB runs transactions on a store in the order they
   * were created, so a read begun after this call (the budget check before the next model call)
   * sees the record. A failed write (a full disk) loses the record, never the reply.
   */
  record(record: UsageRecord): void {
    this.db.usage.put(record).catch(() => undefined);
  }

  async customPrices(): Promise<Record<string, ModelPrice>> {
    const row = await this.db.settings.get('prices');
    return row?.key === 'prices' ? row.value : {};
  }

  async prices(): Promise<Record<string, ModelPrice>> {
    return { ...DEFAULT_PRICES, ...(await this.customPrices()) };
  }

  /** Read before every model call (the budget guard); only this service writes them. */
  budgets(): Promise<Budgets> {
    return this.keptBudgets.get();
  }

  async saveBudgets(budgets: Budgets): Promise<void> {
    await this.keptBudgets.change(() => this.db.settings.put({ key: 'budgets', value: budgets }));
  }

  private readonly keptBudgets = new Kept(async (): Promise<Budgets> => {
    const row = await this.db.settings.get('budgets');
    return row?.key === 'budgets' ? row.value : {};
  });

  /** A price the user sets for `provider/model`; null goes back to the built-in default (if any). */
  async savePrice(key: string, price: ModelPrice | null): Promise<void> {
    const { [key]: _old, ...rest } = await this.customPrices();
    await this.db.settings.put({ key: 'prices', value: price ? { ...rest, [key]: price } : rest });
  }

  async report(conversationId?: string): Promise<CostReport> {
    const prices = await this.prices();
    const since = this.now() - REPORT_DAYS * DAY_MS;
    const recent = await this.db.usage.where('createdAt').aboveOrEqual(since).toArray();
    const byDay = groupCosts(recent, prices, (r) => ({ key: dayOf(r.createdAt), label: dayOf(r.createdAt) })).sort((a, b) => (a.key < b.key ? 1 : -1));
    const byProvider = groupCosts(recent, prices, (r) => ({ key: r.provider, label: r.provider }));
    const inConversation = conversationId ? await this.db.usage.where('conversationId').equals(conversationId).toArray() : [];
    const byMessage: Record<string, CostRow> = {};
    for (const row of groupCosts(inConversation, prices, (r) => (r.messageId ? { key: r.messageId, label: r.messageId } : undefined))) byMessage[row.key] = row;
    return { byDay, byProvider, byMessage, prices, customPrices: Object.keys(await this.customPrices()), budgets: await this.budgets() };
  }
}
