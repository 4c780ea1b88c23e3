import { DEFAULT_POLICY, updateHarborPolicyForDecision, type HarborPolicy } from '../background/harbor/policy';
import { Grant, HarborOptions, type Decision, type PermissionLevel } from '../protocol';
import { USER } from '../background/gate/permission-broker';
import type { JawadDatabase } from './database';
import { Kept } from './kept';
import { OneAtATime } from './one-at-a-time';

/**
 * Where session grants live: browser.storage.session in the extension (survives the background
 * being stopped, cleared when the browser closes); a Map in tests.
 */
export interface SessionArea {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

const SESSION_GRANTS_KEY = 'harbor.sessionGrants';

/** Storage can hold anything (an older version, a hand edit): keep only well-formed grants. */
function validGrants(stored: unknown): Grant[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown) => {
    const parsed = Grant.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

const principalOf = (grant: Grant) => grant.principal ?? USER;

type Step = { site: string; level: PermissionLevel; critical: boolean };

export class HarborStore {
  /** Read-modify-write of the session list must not interleave, or a grant could be lost. */
  private readonly changes = new OneAtATime();
  /** Every step reads the policy, and only this store writes it. */
  private readonly kept = new Kept(() => this.read());

  constructor(
    private readonly db: JawadDatabase,
    private readonly session: SessionArea,
  ) {}

  /**
   * One principal's policy: site grants from Dexie + session grants from the session area + options
   * (settings row 'harbor', defaults when absent). Each principal sees its own grants only.
   */
  async policy(principal: string = USER): Promise<HarborPolicy> {
    const { grants, options } = await this.everyPolicy();
    return { grants: grants.filter((grant) => principalOf(grant) === principal), options };
  }

  /** Every principal's grants (the Settings list shows whose each one is). */
  everyPolicy(): Promise<HarborPolicy> {
    return this.kept.get();
  }

  private async read(): Promise<HarborPolicy> {
    const [siteGrants, sessionGrants, options] = await Promise.all([this.siteGrants(), this.sessionGrants(), this.options()]);
    const grants = [...siteGrants, ...sessionGrants].sort((a, b) => a.createdAt - b.createdAt);
    return { grants, options };
  }

  /** Applies updateHarborPolicyForDecision and persists what it added (site grants → Dexie, session grants → session area). Returns the new policy. */
  decide(decision: Decision, step: Step, principal: string = USER, now = Date.now()): Promise<HarborPolicy> {
    return this.serially(async () => {
      const before = await this.policy(principal);
      const after = updateHarborPolicyForDecision(before, decision, step, now, () => crypto.randomUUID(), principal === USER ? undefined : principal);
      const known = new Set(before.grants.map((grant) => grant.id));
      const added = after.grants.filter((grant) => !known.has(grant.id));
      await this.persist(added);
      return after;
    });
  }

  /** Removes every grant of a principal (a client the user unpaired). */
  async revokePrincipal(principal: string): Promise<void> {
    const { grants } = await this.everyPolicy();
    for (const grant of grants) if (principalOf(grant) === principal) await this.revoke(grant.id);
  }

  /** Removes the grant from either place; an unknown id is not an error (it may be revoked already). */
  revoke(grantId: string): Promise<void> {
    return this.serially(async () => {
      await this.db.grants.delete(grantId);
      const sessionGrants = await this.sessionGrants();
      const kept = sessionGrants.filter((grant) => grant.id !== grantId);
      if (kept.length !== sessionGrants.length) await this.session.set(SESSION_GRANTS_KEY, kept);
    });
  }

  saveOptions(options: HarborOptions): Promise<HarborOptions> {
    const saved = HarborOptions.parse(options);
    return this.serially(async () => {
      await this.db.settings.put({ key: 'harbor', value: saved });
      return saved;
    });
  }

  private async siteGrants(): Promise<Grant[]> {
    return validGrants(await this.db.grants.toArray());
  }

  private async sessionGrants(): Promise<Grant[]> {
    return validGrants(await this.session.get(SESSION_GRANTS_KEY));
  }

  private async options(): Promise<HarborOptions> {
    const row = await this.db.settings.get('harbor');
    const parsed = row?.key === 'harbor' ? HarborOptions.safeParse(row.value) : undefined;
    return parsed?.success ? parsed.data : { ...DEFAULT_POLICY.options };
  }

  private async persist(added: readonly Grant[]): Promise<void> {
    const forSite = added.filter((grant) => grant.scope === 'site');
    const forSession = added.filter((grant) => grant.scope === 'session');
    if (forSite.length > 0) await this.db.grants.bulkPut(forSite);
    if (forSession.length > 0) await this.session.set(SESSION_GRANTS_KEY, [...(await this.sessionGrants()), ...forSession]);
  }

  /** Every change goes through here, one at a time. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    return this.changes.run(() => this.kept.change(work));
  }
}
