import { describe, expect, it } from 'vitest';
import { TabOwners } from '../../../src/background/bridge/tab-owners';

const all = () => true;

describe('TabOwners', () => {
  it('routes to the last snapshot’s tab, else the last tab opened, else the active tab', () => {
    const owners = new TabOwners();
    expect(owners.route('a', all, 1)).toBe(1);
    owners.claim(5, 'a');
    expect(owners.route('a', all, 1)).toBe(5);
    owners.snapshotTaken(2, 'a');
    expect(owners.route('a', all, 1)).toBe(2);
    expect(owners.route('a', (id) => id !== 2, 1)).toBe(5);
  });

  it('never lets one client use another’s tab, and frees tabs when a client goes', () => {
    const owners = new TabOwners();
    owners.claim(5, 'a');
    owners.snapshotTaken(1, 'a');
    expect(owners.mayUse(5, 'b')).toBe(false);
    expect(owners.mayUse(1, 'b')).toBe(false);
    expect(owners.mayUse(9, 'b')).toBe(true);
    owners.release('a');
    expect(owners.mayUse(5, 'b')).toBe(true);
    expect(owners.route('a', all, 3)).toBe(3);
  });

  it('forgets a closed tab', () => {
    const owners = new TabOwners();
    owners.claim(5, 'a');
    owners.tabClosed(5);
    expect(owners.candidates('a')).toEqual([]);
    expect(owners.ownerOf(5)).toBeUndefined();
  });

  it('survives a stopped background as plain JSON', () => {
    const owners = new TabOwners();
    owners.claim(5, 'a');
    owners.snapshotTaken(2, 'b');
    const revived = new TabOwners(JSON.parse(JSON.stringify(owners.toJSON())));
    expect(revived.route('a', all, 1)).toBe(5);
    expect(revived.route('b', all, 1)).toBe(2);
    expect(revived.mayUse(5, 'b')).toBe(false);
  });
});
