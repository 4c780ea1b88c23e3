import { describe, expect, it } from 'vitest';
import { checkPermission, DEFAULT_POLICY, isGrantable, updateHarborPolicyForDecision, type HarborPolicy } from '../../../src/background/harbor/policy';
import { siteOf } from '../../../src/background/harbor/site';
import type { Decision, Grant, PermissionLevel, Verdict } from '../../../src/protocol';

const LEVELS: readonly PermissionLevel[] = ['read-only', 'navigate', 'interact', 'submit'];
const SITE = siteOf('https://shop.example.com/product/1');
const OTHER_SITE = siteOf('https://other.test/');
/** Cyrillic "а": it reads as example.com to a person, not to Harbor. */
const LOOK_ALIKE_SITE = siteOf('https://exаmple.com/');

/**
 * The rules, stated independently of the implementation: for each requested level, the grant
 * levels that let it through. Read-only needs no grant at all.
 */
const LET_THROUGH_BY: Record<PermissionLevel, readonly PermissionLevel[] | 'always'> = {
  'read-only': 'always',
  navigate: ['navigate', 'interact', 'submit'],
  interact: ['interact', 'submit'],
  submit: ['submit'],
};

type GrantSituation =
  | { kind: 'none' }
  | { kind: 'this site'; scope: Grant['scope']; level: PermissionLevel }
  | { kind: 'another site' | 'a look-alike site'; level: PermissionLevel };

const GRANT_SITUATIONS: GrantSituation[] = [
  { kind: 'none' },
  ...LEVELS.map((level): GrantSituation => ({ kind: 'this site', scope: 'site', level })),
  ...LEVELS.map((level): GrantSituation => ({ kind: 'this site', scope: 'session', level })),
  ...LEVELS.map((level): GrantSituation => ({ kind: 'another site', level })),
  ...LEVELS.map((level): GrantSituation => ({ kind: 'a look-alike site', level })),
];

function grantsFor(situation: GrantSituation): Grant[] {
  if (situation.kind === 'none') return [];
  const site = { 'this site': SITE, 'another site': OTHER_SITE, 'a look-alike site': LOOK_ALIKE_SITE }[situation.kind];
  const scope = situation.kind === 'this site' ? situation.scope : 'site';
  return [{ id: 'g1', site, level: situation.level, scope, createdAt: 1 }];
}

function describeSituation(situation: GrantSituation): string {
  if (situation.kind === 'none') return 'no grant';
  if (situation.kind === 'this site') return `${situation.scope} grant ${situation.level}`;
  return `${situation.level} grant on ${situation.kind}`;
}

/** What a user is promised (README / SPEC): critical asks, submits ask while the option is on, grants cover lower levels. */
function promisedVerdict(level: PermissionLevel, situation: GrantSituation, critical: boolean, submitAlwaysAsks: boolean): Verdict {
  const needs = LET_THROUGH_BY[level];
  if (needs === 'always' && !critical) return 'auto-approve';
  if (critical) return 'ask';
  if (level === 'submit' && submitAlwaysAsks) return 'ask';
  const grantHere = situation.kind === 'this site' ? situation.level : undefined;
  return grantHere !== undefined && needs !== 'always' && needs.includes(grantHere) ? 'auto-approve' : 'ask';
}

const TABLE = LEVELS.flatMap((level) =>
  GRANT_SITUATIONS.flatMap((situation) =>
    [false, true].flatMap((critical) =>
      [true, false].map((submitAlwaysAsks) => ({
        name: `${level} · ${describeSituation(situation)} · ${critical ? 'critical' : 'not critical'} · submitAlwaysAsks ${submitAlwaysAsks}`,
        level,
        situation,
        critical,
        submitAlwaysAsks,
      })),
    ),
  ),
);

describe('checkPermission: every level × grant × critical × option', () => {
  it('covers the whole table', () => {
    expect(TABLE).toHaveLength(4 * 17 * 2 * 2);
  });

  it.each(TABLE)('$name', ({ level, situation, critical, submitAlwaysAsks }) => {
    const policy: HarborPolicy = { grants: grantsFor(situation), options: { submitAlwaysAsks } };
    expect(checkPermission(policy, 'click', level, SITE, critical)).toBe(promisedVerdict(level, situation, critical, submitAlwaysAsks));
  });
});

describe('checkPermission: edge cases', () => {
  const everything: HarborPolicy = {
    grants: [{ id: 'g', site: SITE, level: 'submit', scope: 'site', createdAt: 1 }],
    options: { submitAlwaysAsks: false },
  };

  it('without a site, reading runs and everything else asks, even with grants', () => {
    expect(checkPermission(everything, 'list_tabs', 'read-only', '')).toBe('auto-approve');
    for (const level of ['navigate', 'interact', 'submit'] as const) expect(checkPermission(everything, 'close_tab', level, '')).toBe('ask');
  });

  it('refuses to act on a page that is not a web site, but lets it be read', () => {
    const browserPage: HarborPolicy = { ...everything, grants: [{ id: 'g', site: 'chrome://settings', level: 'submit', scope: 'site', createdAt: 1 }] };
    for (const site of ['chrome://settings', 'file:///etc', 'about:config', 'javascript:alert(1)']) {
      for (const level of ['navigate', 'interact', 'submit'] as const) {
        expect(checkPermission(browserPage, 'click', level, site)).toBe('deny');
        expect(checkPermission(browserPage, 'click', level, site, true)).toBe('deny');
      }
      expect(checkPermission(browserPage, 'snapshot', 'read-only', site)).toBe('auto-approve');
    }
  });

  it('a critical step asks even with a submit grant and submits not asking', () => {
    expect(checkPermission(everything, 'click', 'interact', SITE, true)).toBe('ask');
  });

  it('a grant made on www.example.com covers checkout.example.com, not plain http', () => {
    const policy: HarborPolicy = { grants: [{ id: 'g', site: siteOf('https://www.example.com'), level: 'interact', scope: 'site', createdAt: 1 }], options: { submitAlwaysAsks: true } };
    expect(checkPermission(policy, 'click', 'interact', siteOf('https://checkout.example.com/cart'))).toBe('auto-approve');
    expect(checkPermission(policy, 'click', 'interact', siteOf('http://www.example.com'))).toBe('ask');
  });

  it('the default policy asks for everything but reading', () => {
    expect(DEFAULT_POLICY).toEqual({ grants: [], options: { submitAlwaysAsks: true } });
    expect(LEVELS.map((level) => checkPermission(DEFAULT_POLICY, 'tool', level, SITE))).toEqual(['auto-approve', 'ask', 'ask', 'ask']);
  });
});

describe('isGrantable', () => {
  it.each([
    ['read-only', false, true, true],
    ['navigate', false, true, true],
    ['interact', false, true, true],
    ['submit', false, true, false],
    ['submit', false, false, true],
    ['interact', true, false, false],
    ['navigate', true, true, false],
    ['submit', true, false, false],
  ] as const)('%s, critical %s, submitAlwaysAsks %s → %s', (level, critical, submitAlwaysAsks, grantable) => {
    expect(isGrantable({ grants: [], options: { submitAlwaysAsks } }, level, critical)).toBe(grantable);
  });
});

describe('updateHarborPolicyForDecision', () => {
  const step = { site: SITE, level: 'interact' as const, critical: false };
  let counter = 0;
  const newId = () => `grant-${++counter}`;

  it.each([
    ['allow-site', 'site'],
    ['allow-session', 'session'],
  ] as const)('%s adds a %s grant for that site and level, and the step then runs by itself', (decision, scope) => {
    const next = updateHarborPolicyForDecision(DEFAULT_POLICY, decision, step, 1234, newId);
    expect(next.grants).toEqual([{ id: expect.stringMatching(/^grant-/), site: SITE, level: 'interact', scope, createdAt: 1234 }]);
    expect(checkPermission(next, 'click', 'interact', SITE)).toBe('auto-approve');
    expect(checkPermission(next, 'click', 'interact', OTHER_SITE)).toBe('ask');
  });

  it.each(['allow-once', 'deny', 'deny-all'] as const)('%s changes nothing', (decision: Decision) => {
    const next = updateHarborPolicyForDecision(DEFAULT_POLICY, decision, step, 1, newId);
    expect(next).toEqual(DEFAULT_POLICY);
    expect(checkPermission(next, 'click', 'interact', SITE)).toBe('ask');
  });

  it('does not add an equal grant twice', () => {
    const once = updateHarborPolicyForDecision(DEFAULT_POLICY, 'allow-site', step, 1, newId);
    const twice = updateHarborPolicyForDecision(once, 'allow-site', step, 2, newId);
    expect(twice.grants).toHaveLength(1);
    const alsoSession = updateHarborPolicyForDecision(twice, 'allow-session', step, 3, newId);
    expect(alsoSession.grants.map((grant) => grant.scope)).toEqual(['site', 'session']);
  });

  it('grants nothing for critical steps, submits that always ask, or steps without a web site', () => {
    const cases = [
      { ...step, critical: true },
      { ...step, level: 'submit' as const },
      { ...step, site: '' },
      { ...step, site: 'chrome://settings' },
    ];
    for (const blocked of cases) {
      expect(updateHarborPolicyForDecision(DEFAULT_POLICY, 'allow-site', blocked, 1, newId).grants).toEqual([]);
      expect(updateHarborPolicyForDecision(DEFAULT_POLICY, 'allow-session', blocked, 1, newId).grants).toEqual([]);
    }
  });

  it('grants submit once the user turned "submits always ask" off', () => {
    const policy: HarborPolicy = { grants: [], options: { submitAlwaysAsks: false } };
    const next = updateHarborPolicyForDecision(policy, 'allow-site', { ...step, level: 'submit' }, 1, newId);
    expect(checkPermission(next, 'click', 'submit', SITE)).toBe('auto-approve');
  });

  it('leaves the policy it was given untouched', () => {
    const before: HarborPolicy = { grants: [], options: { submitAlwaysAsks: true } };
    updateHarborPolicyForDecision(before, 'allow-site', step, 1, newId);
    expect(before.grants).toEqual([]);
  });
});
