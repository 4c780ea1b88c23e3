/**
 * A bridge client's tabs go in one group, `Agent(<client name>)`, per window. Chrome (tabGroups)
 * and Firefox 139+ (tabs.group + tabGroups) share the API's shape; a browser without it just
 * leaves the tab ungrouped. Groups are remembered by title, so a client's tabs never pile up in
 * a new group each.
 */
interface TabGroupApis {
  tabs: { group(options: { tabIds: number[]; groupId?: number }): Promise<number> };
  tabGroups: {
    update(groupId: number, properties: { title: string }): Promise<unknown>;
    query(query: { title: string }): Promise<Array<{ id: number; windowId: number }>>;
  };
}

function api(): TabGroupApis | undefined {
  // The polyfill does not wrap tab groups; the browsers' own namespace has them.
  const candidate = (globalThis as unknown as { browser?: Partial<TabGroupApis>; chrome?: Partial<TabGroupApis> });
  const ns = candidate.browser?.tabGroups ? candidate.browser : candidate.chrome;
  return ns?.tabGroups && typeof ns.tabs?.group === 'function' ? (ns as TabGroupApis) : undefined;
}

export async function groupTab(tabId: number, windowId: number, title: string): Promise<void> {
  const groups = api();
  if (!groups) return;
  const existing = (await groups.tabGroups.query({ title })).find((group) => group.windowId === windowId);
  const groupId = await groups.tabs.group({ tabIds: [tabId], ...(existing ? { groupId: existing.id } : {}) });
  if (!existing) await groups.tabGroups.update(groupId, { title });
}
