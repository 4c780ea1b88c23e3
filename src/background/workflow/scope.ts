/**
 * What an approved plan lets the workflow do, for the step gate: the sites of its steps, and on
 * each the most the user approved there. Reading an approved site needs no prompt; acting still
 * follows Harbor's grants; anything above the approved level, or on another site, asks.
 */
import type { PermissionLevel, WorkflowLevel, WorkflowStep } from '../../protocol';
import type { ApprovedSite } from '../gate/guard';
import { siteOf } from '../harbor/site';

const HARBOR_LEVEL: Record<WorkflowLevel, PermissionLevel> = { read: 'read-only', navigate: 'navigate', interact: 'interact' };
const RANK: readonly PermissionLevel[] = ['read-only', 'navigate', 'interact', 'submit'];

function highest(levels: readonly WorkflowLevel[]): PermissionLevel {
  return levels.map((level) => HARBOR_LEVEL[level]).reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'read-only');
}

/** One entry per site, with the highest level any step approved there. */
export function approvedScope(steps: readonly Pick<WorkflowStep, 'site' | 'permissions'>[]): ApprovedSite[] {
  const bySite = new Map<string, PermissionLevel>();
  for (const step of steps) {
    const site = siteOf(step.site);
    if (!site) continue;
    const level = highest(step.permissions);
    const known = bySite.get(site);
    if (!known || RANK.indexOf(level) > RANK.indexOf(known)) bySite.set(site, level);
  }
  return [...bySite].map(([site, level]) => ({ site, level }));
}

/** A step whose permissions go beyond reading may have changed something: it is never replayed on its own. */
export function mayChangeThings(step: Pick<WorkflowStep, 'permissions'>): boolean {
  return step.permissions.some((level) => level !== 'read');
}
