/**
 * Which client each tab belongs to, and where a client's next command goes (seed 004's routing):
 * the tab of its last snapshot, else the last tab it opened, else the active tab — never a tab
 * another client holds. Pure: the service tells it what exists.
 */
/** What TabOwners keeps, as plain JSON (it outlives a stopped background in storage.session). */
export interface TabOwnersState {
  owners: Array<[number, string]>;
  lastSnapshot: Array<[string, number]>;
  opened: Array<[string, number[]]>;
}

export class TabOwners {
  private readonly owners: Map<number, string>;
  private readonly lastSnapshot: Map<string, number>;
  private readonly opened: Map<string, number[]>;

  constructor(state?: TabOwnersState) {
    this.owners = new Map(state?.owners ?? []);
    this.lastSnapshot = new Map(state?.lastSnapshot ?? []);
    this.opened = new Map(state?.opened ?? []);
  }

  toJSON(): TabOwnersState {
    return { owners: [...this.owners], lastSnapshot: [...this.lastSnapshot], opened: [...this.opened] };
  }

  claim(tabId: number, principal: string): void {
    this.owners.set(tabId, principal);
    this.opened.set(principal, [...(this.opened.get(principal) ?? []).filter((id) => id !== tabId), tabId]);
  }

  snapshotTaken(tabId: number, principal: string): void {
    this.lastSnapshot.set(principal, tabId);
    if (!this.owners.has(tabId)) this.owners.set(tabId, principal);
  }

  /** Whether `principal` may use this tab: a free tab or one of its own. */
  mayUse(tabId: number, principal: string): boolean {
    const owner = this.owners.get(tabId);
    return owner === undefined || owner === principal;
  }

  /** Every tab `principal` holds. */
  tabsOf(principal: string): number[] {
    return [...this.owners].flatMap(([tabId, owner]) => (owner === principal ? [tabId] : []));
  }

  ownerOf(tabId: number): string | undefined {
    return this.owners.get(tabId);
  }

  /** The tabs route() may pick besides the active one, for the caller to check they still exist. */
  candidates(principal: string): number[] {
    const snapshot = this.lastSnapshot.get(principal);
    return [...(snapshot === undefined ? [] : [snapshot]), ...(this.opened.get(principal) ?? [])];
  }

  /** The tab the next command of `principal` acts on, given the tabs that still exist and the active one. */
  route(principal: string, exists: (tabId: number) => boolean, active: number | undefined): number | undefined {
    const snapshot = this.lastSnapshot.get(principal);
    if (snapshot !== undefined && exists(snapshot)) return snapshot;
    const opened = (this.opened.get(principal) ?? []).filter(exists);
    if (opened.length > 0) return opened.at(-1);
    return active;
  }

  tabClosed(tabId: number): void {
    this.owners.delete(tabId);
    for (const [principal, tabs] of this.opened) this.opened.set(principal, tabs.filter((id) => id !== tabId));
    for (const [principal, tab] of this.lastSnapshot) if (tab === tabId) this.lastSnapshot.delete(principal);
  }

  /** A client unpaired or killed: its tabs are free again (they stay open; they are the user's). */
  release(principal: string): void {
    for (const [tabId, owner] of this.owners) if (owner === principal) this.owners.delete(tabId);
    this.opened.delete(principal);
    this.lastSnapshot.delete(principal);
  }
}
