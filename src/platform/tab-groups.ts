/**
 * Tab groups: Chrome has had `tabs.group` + `tabGroups` for years; Firefox has them since 138/139,
 * and Firefox builds without them fall back to the list the sidebar shows. Both are looked up at
 * run time (webextension-polyfill does not type them) so one build works in both.
 */
import browser from 'webextension-polyfill';

const COLOURS = ['blue', 'cyan', 'green', 'orange', 'pink', 'purple', 'red', 'yellow'] as const;

interface GroupApis {
  group?: (options: { tabIds: number[]; groupId?: number; createProperties?: { windowId: number } }) => Promise<number>;
  update?: (groupId: number, properties: { title: string; color: string; collapsed?: boolean }) => Promise<unknown>;
}

function groupApis(): GroupApis {
  // The extension namespaces as the browser made them: these members are not in the polyfill's types.
  const tabs = browser.tabs as unknown as { group?: GroupApis['group'] };
  const tabGroups = (browser as unknown as { tabGroups?: { update?: GroupApis['update'] } }).tabGroups;
  return { group: tabs.group?.bind(tabs), update: tabGroups?.update?.bind(tabGroups) };
}

/** A colour that stays the same for one workflow. */
export function groupColour(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length]!;
}

/**
 * Puts the tabs into the group (a new one in `windowId` when `existing` is undefined) and names it.
 * Resolves with the group's id, or undefined where the browser has no tab groups.
 */
export async function groupTabs(tabIds: number[], windowId: number, title: string, existing?: number): Promise<number | undefined> {
  const { group, update } = groupApis();
  if (!group || tabIds.length === 0) return undefined;
  const groupId = await group({ tabIds, ...(existing === undefined ? { createProperties: { windowId } } : { groupId: existing }) });
  await update?.(groupId, { title, color: groupColour(title) });
  return groupId;
}

/**
 * A bridge client's tabs go in one group, `Agent(<client name>)`, per window: the group is found
 * again by its title, so a client's tabs never pile up in a new group each.
 */
export async function groupTab(tabId: number, windowId: number, title: string): Promise<void> {
  const tabGroups = (browser as unknown as { tabGroups?: { query?: (query: { title: string }) => Promise<Array<{ id: number; windowId: number }>> } }).tabGroups;
  const existing = tabGroups?.query ? (await tabGroups.query({ title })).find((group) => group.windowId === windowId) : undefined;
  await groupTabs([tabId], windowId, title, existing?.id);
}
