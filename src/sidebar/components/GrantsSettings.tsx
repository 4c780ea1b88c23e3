import { useEffect } from 'preact/hooks';
import type { Grant, HarborOptions } from '../../protocol';
import { bridgeStatus, loadGrants, revokeGrant, saveHarborOptions, state } from '../store';
import { LEVEL_LABELS, siteLabel } from '../step-format';

const SCOPE_LABELS: Record<Grant['scope'], string> = { site: 'this site', session: 'this session' };

/** Whose grant: yours (the sidebar's agent), or a paired bridge client's own. */
function holderOf(grant: Grant): string | undefined {
  if (!grant.principal) return undefined;
  return `Agent(${bridgeStatus.value?.clients.find((client) => client.id === grant.principal)?.name ?? 'unpaired client'})`;
}

function GrantRow({ grant }: { grant: Grant }) {
  const created = new Date(grant.createdAt);
  const holder = holderOf(grant);
  return (
    <li class="grant-row" data-testid="grant-row" data-grant-id={grant.id} data-site={grant.site} data-level={grant.level} data-scope={grant.scope}>
      {holder && <span class="grant-holder" data-testid="grant-holder">{holder}</span>}
      <span class="grant-site" title={grant.site}>{siteLabel(grant.site)}</span>
      <span class="level-badge" data-level={grant.level}>{LEVEL_LABELS[grant.level]}</span>
      <span class="grant-scope">{SCOPE_LABELS[grant.scope]}</span>
      <time dateTime={created.toISOString()}>{created.toLocaleString()}</time>
      <button
        type="button"
        class="danger"
        data-testid="revoke-grant"
        aria-label={`Revoke ${LEVEL_LABELS[grant.level]} on ${siteLabel(grant.site)} (${SCOPE_LABELS[grant.scope]})`}
        onClick={() => revokeGrant(grant.id)}
      >
        Revoke
      </button>
    </li>
  );
}

function SubmitOption({ options }: { options: HarborOptions }) {
  return (
    <label class="inline">
      <input
        type="checkbox"
        data-testid="submit-always-asks"
        checked={options.submitAlwaysAsks}
        onChange={(event) => saveHarborOptions({ ...options, submitAlwaysAsks: (event.target as HTMLInputElement).checked })}
      />
      Always ask before submitting forms
    </label>
  );
}

/** What Jawad may do without asking, and where: every standing grant, each revocable. */
export function GrantsSettings() {
  useEffect(() => loadGrants(), []);
  const harbor = state.value.harbor;
  return (
    <section class="grants-settings" aria-labelledby="grants-heading">
      <h2 id="grants-heading">Permissions</h2>
      <p class="hint">When Jawad acts on a page it asks first. “Allow on this site” and “Allow for this session” are remembered here. Critical actions (buy, pay, delete, send…) ask every time.</p>
      {harbor === undefined ? (
        <p class="muted" role="status">Loading…</p>
      ) : (
        <>
          {harbor.grants.length === 0 ? (
            <p class="muted" data-testid="grants-empty">No permissions granted. Jawad asks before each action that changes a page.</p>
          ) : (
            <ul class="grants-list" data-testid="grants-list" aria-label="Granted permissions">
              {harbor.grants.map((grant) => <GrantRow key={grant.id} grant={grant} />)}
            </ul>
          )}
          <SubmitOption options={harbor.options} />
        </>
      )}
    </section>
  );
}
