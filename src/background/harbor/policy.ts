/**
 * Harbor's rules, as pure functions over a policy value: what runs by itself, what asks, and what
 * a user's answer to a prompt changes. Storage lives in src/db/harbor-store.ts.
 */
import type { Decision, Grant, HarborOptions, PermissionLevel, Verdict } from '../../protocol';

export interface HarborPolicy {
  grants: Grant[];
  options: HarborOptions;
}

export const DEFAULT_POLICY: HarborPolicy = { grants: [], options: { submitAlwaysAsks: true } };

/** A grant of a level covers every level before it in this list, never one after. */
const LEVEL_ORDER: readonly PermissionLevel[] = ['read-only', 'navigate', 'interact', 'submit'];

/** Sites come from siteOf(), which only makes http(s) ones. */
const WEB_SITE = /^https?:\/\//;

function covers(granted: PermissionLevel, wanted: PermissionLevel): boolean {
  return LEVEL_ORDER.indexOf(granted) >= LEVEL_ORDER.indexOf(wanted);
}

function hasCoveringGrant(grants: readonly Grant[], level: PermissionLevel, site: string): boolean {
  return grants.some((grant) => grant.site === site && covers(grant.level, level));
}

/**
 * Pure. Defaults: read-only → auto-approve; navigate/interact → ask unless a grant covers them;
 * submit → ask always while options.submitAlwaysAsks, else like interact but needs a submit-level
 * grant; critical → always ask, whatever was granted. site '' (no site: e.g. listing tabs):
 * read-only → auto-approve, anything else → ask.
 *
 * 'deny' is for a site string that is not a web site at all ("chrome://settings", "file:///…"):
 * siteOf() never makes one, so it means the caller is pointing at a page Jawad must not change.
 * Reading is still allowed there; any other level is refused without asking.
 *
 * toolName is not consulted: the level decides. It is in the signature so per-tool rules can come
 * without touching every caller.
 */
export function checkPermission(policy: HarborPolicy, toolName: string, level: PermissionLevel, site: string, critical = false): Verdict {
  if (level === 'read-only' && !critical) return 'auto-approve';
  if (level !== 'read-only' && site !== '' && !WEB_SITE.test(site)) return 'deny';
  if (critical || site === '') return 'ask';
  if (level === 'submit' && policy.options.submitAlwaysAsks) return 'ask';
  return hasCoveringGrant(policy.grants, level, site) ? 'auto-approve' : 'ask';
}

/** Whether allow-site / allow-session make sense for this step: false for critical steps, and for submit while submitAlwaysAsks. */
export function isGrantable(policy: HarborPolicy, level: PermissionLevel, critical: boolean): boolean {
  if (critical) return false;
  return !(level === 'submit' && policy.options.submitAlwaysAsks);
}

const SCOPE_OF_DECISION: Partial<Record<Decision, Grant['scope']>> = { 'allow-site': 'site', 'allow-session': 'session' };

/**
 * Pure: the policy after the user's decision. allow-site adds a {scope:'site'} grant, allow-session
 * a {scope:'session'} grant (for that site and level; no duplicate when an equal grant exists;
 * nothing when !isGrantable or site === ''); allow-once, deny, deny-all change nothing.
 */
export function updateHarborPolicyForDecision(
  policy: HarborPolicy,
  decision: Decision,
  step: { site: string; level: PermissionLevel; critical: boolean },
  now: number,
  newId: () => string,
  /** A bridge client's id; the user's own grants carry none. */
  principal?: string,
): HarborPolicy {
  const scope = SCOPE_OF_DECISION[decision];
  if (!scope || !WEB_SITE.test(step.site) || !isGrantable(policy, step.level, step.critical)) return policy;
  const exists = policy.grants.some((grant) => grant.site === step.site && grant.level === step.level && grant.scope === scope);
  if (exists) return policy;
  const grant: Grant = { id: newId(), site: step.site, level: step.level, scope, createdAt: now, ...(principal ? { principal } : {}) };
  return { ...policy, grants: [...policy.grants, grant] };
}
