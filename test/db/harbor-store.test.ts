import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/background/harbor/policy';
import { JawadDatabase } from '../../src/db/database';
import { HarborStore, type SessionArea } from '../../src/db/harbor-store';

const SITE = 'https://example.com';

/** storage.session stand-in: a Map that outlives store instances, as the real one outlives the background. */
function mapArea(values = new Map<string, unknown>()): SessionArea & { values: Map<string, unknown> } {
  return { values, get: async (key) => values.get(key), set: async (key, value) => void values.set(key, value) };
}

let db: JawadDatabase;
let session: ReturnType<typeof mapArea>;
let store: HarborStore;

beforeEach(() => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  session = mapArea();
  store = new HarborStore(db, session);
});
afterEach(async () => {
  await db.delete();
});

describe('HarborStore', () => {
  it('reads storage once for many steps, and again after each change it makes', async () => {
    let reads = 0;
    const counted: SessionArea = { get: async (key) => (reads++, session.get(key)), set: session.set };
    const counting = new HarborStore(db, counted);
    await Promise.all([counting.policy(), counting.policy('bridge:a')]);
    await counting.policy();
    expect(reads).toBe(1);
    await counting.decide('allow-session', { site: SITE, level: 'interact', critical: false });
    expect(checkPermission(await counting.policy(), 'click', 'interact', SITE)).toBe('auto-approve');
    const [grant] = (await counting.policy()).grants;
    await counting.revoke(grant!.id);
    expect(checkPermission(await counting.policy(), 'click', 'interact', SITE)).toBe('ask');
  });


  it('starts with no grants and submits that always ask', async () => {
    expect(await store.policy()).toEqual({ grants: [], options: { submitAlwaysAsks: true } });
  });

  it('keeps an allow-site grant in IndexedDB, where a new store (a restarted background) finds it', async () => {
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: false }, 'user', 1000);
    const restarted = new HarborStore(new JawadDatabase(db.name), mapArea());
    const policy = await restarted.policy();
    expect(policy.grants).toEqual([{ id: expect.any(String), site: SITE, level: 'interact', scope: 'site', createdAt: 1000 }]);
    expect(checkPermission(policy, 'click', 'interact', SITE)).toBe('auto-approve');
    expect(session.values.size).toBe(0);
  });

  it('keeps an allow-session grant in the session area only', async () => {
    const returned = await store.decide('allow-session', { site: SITE, level: 'navigate', critical: false }, 'user', 2000);
    expect(await db.grants.count()).toBe(0);
    expect(session.values.get('harbor.sessionGrants')).toEqual([{ id: expect.any(String), site: SITE, level: 'navigate', scope: 'session', createdAt: 2000 }]);
    expect(returned.grants).toHaveLength(1);
    expect(checkPermission(await new HarborStore(db, session).policy(), 'open_url', 'navigate', SITE)).toBe('auto-approve');
    expect((await new HarborStore(db, mapArea()).policy()).grants).toEqual([]);
  });

  it('adds nothing for allow-once, deny or a critical step', async () => {
    await store.decide('allow-once', { site: SITE, level: 'interact', critical: false });
    await store.decide('deny', { site: SITE, level: 'interact', critical: false });
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: true });
    await store.decide('allow-session', { site: SITE, level: 'interact', critical: true });
    expect((await store.policy()).grants).toEqual([]);
    expect(await db.grants.count()).toBe(0);
    expect(session.values.get('harbor.sessionGrants')).toBeUndefined();
  });

  it('does not store the same grant twice', async () => {
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: false });
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: false });
    await store.decide('allow-session', { site: SITE, level: 'navigate', critical: false });
    await store.decide('allow-session', { site: SITE, level: 'navigate', critical: false });
    expect(await db.grants.count()).toBe(1);
    expect(session.values.get('harbor.sessionGrants')).toHaveLength(1);
  });

  it('keeps every grant when decisions arrive at once', async () => {
    await Promise.all(
      ['https://a.test', 'https://b.test', 'https://c.test'].map((site) => store.decide('allow-session', { site, level: 'interact', critical: false })),
    );
    expect((await store.policy()).grants.map((grant) => grant.site).sort()).toEqual(['https://a.test', 'https://b.test', 'https://c.test']);
  });

  it('revokes a site grant and a session grant, and the step asks again', async () => {
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: false }, 'user', 1);
    await store.decide('allow-session', { site: 'https://other.test', level: 'interact', critical: false }, 'user', 2);
    const [siteGrant, sessionGrant] = (await store.policy()).grants;
    if (!siteGrant || !sessionGrant) throw new Error('both grants should be there');

    await store.revoke(siteGrant.id);
    expect(await db.grants.count()).toBe(0);
    expect(checkPermission(await store.policy(), 'click', 'interact', SITE)).toBe('ask');

    await store.revoke(sessionGrant.id);
    expect(session.values.get('harbor.sessionGrants')).toEqual([]);
    expect((await store.policy()).grants).toEqual([]);
  });

  it('revoking an unknown grant is harmless', async () => {
    await store.decide('allow-site', { site: SITE, level: 'interact', critical: false });
    await expect(store.revoke('no-such-grant')).resolves.toBeUndefined();
    expect((await store.policy()).grants).toHaveLength(1);
  });

  it('drops malformed session entries instead of failing', async () => {
    const good = { id: 'ok', site: SITE, level: 'interact', scope: 'session', createdAt: 5 };
    session.values.set('harbor.sessionGrants', [good, { id: 'bad', site: SITE, level: 'root', scope: 'session', createdAt: 5 }, null, 'junk']);
    expect((await store.policy()).grants).toEqual([good]);
    session.values.set('harbor.sessionGrants', 'not a list');
    // The store keeps what it read; a restarted background (a new store) reads the area again.
    expect((await new HarborStore(db, session).policy()).grants).toEqual([]);
  });

  it('saves options, and a new store reads them back', async () => {
    expect((await store.policy()).options).toEqual({ submitAlwaysAsks: true });
    expect(await store.saveOptions({ submitAlwaysAsks: false })).toEqual({ submitAlwaysAsks: false });
    expect((await store.policy()).options).toEqual({ submitAlwaysAsks: false });
    const policy = await new HarborStore(db, session).policy();
    expect(policy.options).toEqual({ submitAlwaysAsks: false });
    await store.decide('allow-site', { site: SITE, level: 'submit', critical: false });
    expect(checkPermission(await store.policy(), 'click', 'submit', SITE)).toBe('auto-approve');
  });
});
