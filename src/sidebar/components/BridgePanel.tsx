import { useState } from 'preact/hooks';
import type { ActivityEntry, BridgeStatus, PairingRequest } from '../../protocol';
import { PermissionPrompt } from './PermissionPrompt';
import {
  approvePairing,
  bridgeStatus,
  connectBridge,
  disconnectBridge,
  killBridge,
  refusePairing,
  unpairClient,
  updateBridgeUrl,
} from '../store';

const STATE_TEXT: Record<BridgeStatus['state'], string> = {
  off: 'Off',
  disconnected: 'Disconnected',
  connecting: 'Connecting…',
  connected: 'Connected, no client paired',
  paired: 'Connected and paired',
  error: 'Error',
};

function Pairing({ request }: { request: PairingRequest }) {
  return (
    <li class="pairing" data-testid="pairing-request" data-client={request.client}>
      <p>
        <strong>{request.name}</strong> wants to use this browser through Jawad. Its code: <code data-testid="pairing-code">{request.code}</code>
      </p>
      <p class="hint">Approve only if the program you started prints this same code.</p>
      <div class="row">
        <button type="button" class="primary" data-testid="approve-pairing" onClick={() => approvePairing(request.client)}>
          Approve
        </button>
        <button type="button" class="danger" data-testid="refuse-pairing" onClick={() => refusePairing(request.client)}>
          Refuse
        </button>
      </div>
    </li>
  );
}

function UrlForm({ url }: { url: string }) {
  const [value, setValue] = useState(url);
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        updateBridgeUrl(value.trim());
      }}
    >
      <label class="grow">
        Relay URL
        <input data-testid="bridge-url" value={value} onInput={(event) => setValue((event.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" data-testid="save-bridge-url">
        Save
      </button>
    </form>
  );
}

function Activity({ entries }: { entries: ActivityEntry[] }) {
  if (entries.length === 0) return <p class="muted">No commands yet.</p>;
  return (
    <ol class="bridge-activity" data-testid="bridge-activity" aria-label="Bridge activity">
      {[...entries].reverse().slice(0, 50).map((entry, index) => (
        <li key={`${entry.at}-${index}`} data-outcome={entry.outcome} data-command={entry.command}>
          <time dateTime={new Date(entry.at).toISOString()}>{new Date(entry.at).toLocaleTimeString()}</time> <strong>{entry.clientName}</strong> {entry.command}{' '}
          <span class="level">{entry.decision}</span> {entry.outcome}
          {entry.detail ? ` — ${entry.detail}` : ''}
        </li>
      ))}
    </ol>
  );
}

/**
 * The external agent bridge: status, connect/disconnect, the relay URL, pairing requests, paired
 * clients and the live activity log, with a kill switch. The same panel is the popup and the
 * sidebar's Bridge view; client prompts show as the usual permission prompt beside it.
 */
export function BridgePanel() {
  const status = bridgeStatus.value;
  if (!status) return <p class="muted" role="status">Loading…</p>;
  return (
    <section class="bridge" aria-labelledby="bridge-heading" data-testid="bridge-panel">
      <h2 id="bridge-heading">Agent bridge</h2>
      <p class="bridge-state" role="status" data-testid="bridge-state" data-state={status.state}>
        {STATE_TEXT[status.state]}
        {status.reason && status.state !== 'paired' && status.state !== 'connected' ? ` — ${status.reason}` : ''}
      </p>
      <div class="row">
        {status.enabled ? (
          <button type="button" data-testid="bridge-disconnect" onClick={disconnectBridge}>
            Disconnect
          </button>
        ) : (
          <button type="button" class="primary" data-testid="bridge-connect" onClick={connectBridge}>
            Connect
          </button>
        )}
        <button type="button" class="danger" data-testid="bridge-kill" onClick={killBridge} title="Disconnect and stop every client's commands and prompts now">
          Kill switch
        </button>
      </div>
      <UrlForm key={status.url} url={status.url} />
      {status.pairing.length > 0 && <ul class="pairing-list">{status.pairing.map((request) => <Pairing key={request.client} request={request} />)}</ul>}
      <h3>Paired clients</h3>
      {status.clients.length === 0 ? (
        <p class="muted">None. A client asks to pair when it connects; you approve it here.</p>
      ) : (
        <ul class="bridge-clients" data-testid="bridge-clients">
          {status.clients.map((client) => (
            <li key={client.id} data-testid="bridge-client" data-connected={String(client.connected)}>
              <span>Agent({client.name})</span> <span class="muted">{client.connected ? 'connected' : 'not connected'}</span>{' '}
              <button type="button" class="danger" data-testid="unpair-client" onClick={() => unpairClient(client.id)}>
                Unpair
              </button>
            </li>
          ))}
        </ul>
      )}
      <PermissionPrompt />
      <h3>Activity</h3>
      <Activity entries={status.activity} />
    </section>
  );
}
