import { useEffect, useState } from 'preact/hooks';
import type { Budgets, Conversation, ImportCount, ImportPreview, ModelPrice, SearchHit } from '../../protocol';
import { formatCost, formatTokens, groupByDate, segments } from '../history-format';
import {
  cancelImport,
  clearHistory,
  confirmImport,
  deleteConversation,
  exportArchive,
  exportMarkdown,
  loadCosts,
  saveBudgets,
  savePrice,
  openConversation,
  pinConversation,
  previewImport,
  renameConversation,
  searchHistory,
  state,
  storagePersisted,
  transfer,
  exportError,
} from '../store';

/** A snippet with its matches in <mark>: built from text nodes, never from HTML. */
function Highlighted({ hit }: { hit: SearchHit }) {
  return (
    <span class="snippet">
      {segments(hit.snippet).map((segment, i) => (segment.marked ? <mark key={i}>{segment.text}</mark> : segment.text))}
    </span>
  );
}

function SearchResults({ query, hits }: { query: string; hits: SearchHit[] }) {
  if (hits.length === 0) return <p class="muted">Nothing found for “{query}”.</p>;
  return (
    <ul class="search-results" aria-label="Search results">
      {hits.map((hit) => (
        <li key={`${hit.kind}:${hit.id}`} data-kind={hit.kind}>
          <button type="button" class="conversation-title search-hit" onClick={() => openConversation(hit.conversationId, hit.messageId)}>
            <span class="hit-title">
              <span dir="auto">{hit.conversationTitle}</span>
              {hit.kind === 'step' && <span class="hit-kind"> · agent step</span>}
              {hit.kind === 'report' && <span class="hit-kind"> · research report</span>}
            </span>
            <Highlighted hit={hit} />
            <time dateTime={new Date(hit.createdAt).toISOString()}>{new Date(hit.createdAt).toLocaleString()}</time>
          </button>
        </li>
      ))}
    </ul>
  );
}

function RenameForm({ conversation, done }: { conversation: Conversation; done: () => void }) {
  const [title, setTitle] = useState(conversation.title);
  return (
    <form
      class="rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (title.trim() && title.trim() !== conversation.title) renameConversation(conversation.id, title);
        done();
      }}
    >
      <input
        aria-label="New title"
        value={title}
        maxLength={200}
        ref={(input) => input?.focus()}
        onInput={(event) => setTitle(event.currentTarget.value)}
        onKeyDown={(event) => event.key === 'Escape' && done()}
      />
      <button type="submit">Save</button>
    </form>
  );
}

function ConversationRow({ conversation, current }: { conversation: Conversation; current: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const { id, title, pinned, updatedAt } = conversation;
  return (
    <li class={current ? 'current' : ''} data-conversation-id={id}>
      {renaming ? (
        <RenameForm conversation={conversation} done={() => setRenaming(false)} />
      ) : (
        <button type="button" class="conversation-title" onClick={() => openConversation(id)}>
          <span dir="auto">{title}</span>
          <time dateTime={new Date(updatedAt).toISOString()}>{new Date(updatedAt).toLocaleString()}</time>
        </button>
      )}
      <span class="row-actions">
        <button type="button" class="link-button" aria-label={`Rename “${title}”`} onClick={() => setRenaming(!renaming)}>
          Rename
        </button>
        <button type="button" class="link-button" aria-pressed={pinned === true} aria-label={`${pinned ? 'Unpin' : 'Pin'} “${title}”`} onClick={() => pinConversation(id, !pinned)}>
          {pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" class="link-button" aria-label={`Export “${title}” as Markdown`} onClick={() => exportMarkdown(id)}>
          .md
        </button>
        <button type="button" class="link-button" aria-label={`Delete “${title}”`} onClick={() => deleteConversation(id)}>
          Delete
        </button>
      </span>
    </li>
  );
}

const KINDS = ['conversations', 'messages', 'steps', 'usage', 'memories'] as const;
const KIND_NAMES: Record<(typeof KINDS)[number], string> = { conversations: 'conversations', messages: 'messages', steps: 'agent steps', usage: 'usage records', memories: 'memories' };
const FORMAT_NAMES: Record<ImportPreview['format'], string> = { jawad: 'Jawad archive', chatgpt: 'ChatGPT export', 'open-webui': 'Open WebUI export' };

function countLine(kind: (typeof KINDS)[number], count: ImportCount, applied: boolean): string | undefined {
  if (count.add + count.same + count.differ === 0) return undefined;
  const parts = [`${count.add} ${applied ? 'added' : 'to add'}`];
  if (count.same) parts.push(`${count.same} already here`);
  if (count.differ) parts.push(`${count.differ} differ from yours and stay as they are`);
  return `${KIND_NAMES[kind]}: ${parts.join(', ')}`;
}

function ImportSummary({ result }: { result: ImportPreview }) {
  const nothing = KINDS.every((kind) => result[kind].add === 0);
  return (
    <div class="import-summary" role="status" data-testid="import-summary" data-applied={result.applied}>
      <p>
        <strong>{FORMAT_NAMES[result.format]}</strong> — {result.applied ? 'imported.' : nothing ? 'everything in it is already here.' : 'this import would add:'}
      </p>
      <ul>
        {KINDS.map((kind) => countLine(kind, result[kind], result.applied)).filter(Boolean).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {!result.applied && result.newTitles.length > 0 && <p class="muted">New: {result.newTitles.join(' · ')}</p>}
      {!result.applied && (
        <p class="actions">
          <button type="button" onClick={confirmImport} disabled={nothing || transfer.value !== undefined}>
            Import
          </button>
          <button type="button" class="link-button" onClick={cancelImport}>
            Cancel
          </button>
        </p>
      )}
    </div>
  );
}

function ImportExport() {
  const busy = transfer.value;
  const result = state.value.importResult;
  return (
    <section class="import-export" aria-label="Export and import">
      <h3>Export and import</h3>
      <p class="actions">
        <button type="button" onClick={exportArchive} disabled={busy !== undefined}>
          Export everything (.json)
        </button>
        <label class="file-button">
          Import a file…
          <input
            type="file"
            accept=".json,application/json"
            aria-label="Import a Jawad archive, ChatGPT or Open WebUI export"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) void previewImport(file);
              event.currentTarget.value = '';
            }}
          />
        </label>
      </p>
      {busy && <p class="muted" role="status">{busy === 'exporting' ? 'Preparing the archive…' : 'Reading the file…'}</p>}
      {exportError.value && <p class="message-error" role="alert">{exportError.value}</p>}
      {result && <ImportSummary result={result} />}
      <p class="muted">The archive holds conversations, agent steps, usage and memories — never API keys.</p>
      <p class="muted storage-status" data-persisted={String(storagePersisted.value)}>
        {storagePersisted.value === undefined
          ? ''
          : storagePersisted.value
            ? 'Storage: persistent — the browser keeps this history until you delete it.'
            : 'Storage: no quota (unlimitedStorage); the browser did not grant persistent storage, so export a copy of anything you cannot lose.'}
      </p>
    </section>
  );
}

/** A form's dollar field: undefined when left empty. */
function dollars(data: FormData, name: string): number | undefined {
  const text = String(data.get(name) ?? '').trim();
  return text === '' ? undefined : Math.max(0, Number(text));
}

function BudgetForm({ budgets }: { budgets: Budgets }) {
  return (
    <form
      class="budgets"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const perTask = dollars(data, 'perTask');
        const perDay = dollars(data, 'perDay');
        saveBudgets({ ...(perTask === undefined ? {} : { perTask }), ...(perDay === undefined ? {} : { perDay }) });
      }}
    >
      <label>
        Budget per task ($)
        <input name="perTask" type="number" min="0" step="any" defaultValue={budgets.perTask?.toString() ?? ''} placeholder="none" />
      </label>
      <label>
        Budget per day ($)
        <input name="perDay" type="number" min="0" step="any" defaultValue={budgets.perDay?.toString() ?? ''} placeholder="none" />
      </label>
      <button type="submit">Save budgets</button>
    </form>
  );
}

function PriceForm({ prices, custom }: { prices: Record<string, ModelPrice>; custom: string[] }) {
  const [key, setKey] = useState('');
  const known = prices[key];
  return (
    <form
      class="prices"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const cachedInput = dollars(data, 'cachedInput');
        savePrice(key.trim(), { input: dollars(data, 'input') ?? 0, output: dollars(data, 'output') ?? 0, ...(cachedInput === undefined ? {} : { cachedInput }) });
      }}
    >
      <label>
        Model (provider/model)
        <input name="key" list="known-prices" required value={key} onInput={(event) => setKey(event.currentTarget.value)} placeholder="openai/gpt-4o" />
      </label>
      <datalist id="known-prices">
        {Object.keys(prices).map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      <span class="price-inputs" key={key}>
        <input name="input" type="number" min="0" step="any" required aria-label="Input $ per million tokens" defaultValue={known?.input.toString() ?? ''} placeholder="in $/M" />
        <input name="output" type="number" min="0" step="any" required aria-label="Output $ per million tokens" defaultValue={known?.output.toString() ?? ''} placeholder="out $/M" />
        <input name="cachedInput" type="number" min="0" step="any" aria-label="Cached input $ per million tokens" defaultValue={known?.cachedInput?.toString() ?? ''} placeholder="cached $/M" />
      </span>
      <p class="actions">
        <button type="submit">Set price</button>
        {custom.includes(key) && (
          <button type="button" class="link-button" onClick={() => savePrice(key, null)}>
            Back to default
          </button>
        )}
      </p>
    </form>
  );
}

function Costs() {
  const costs = state.value.costs;
  useEffect(loadCosts, []);
  if (!costs) return null;
  return (
    <section class="costs" aria-label="Tokens and cost">
      <h3>Tokens and cost (last 30 days)</h3>
      {costs.byProvider.length === 0 ? (
        <p class="muted">No model calls recorded yet.</p>
      ) : (
        <table>
          <tbody>
            {costs.byProvider.map((row) => (
              <tr key={`p:${row.key}`} data-provider={row.key}>
                <th scope="row">{row.label}</th>
                <td>{formatTokens(row)}</td>
                <td class="cost">{formatCost(row)}</td>
              </tr>
            ))}
            {costs.byDay.slice(0, 7).map((row) => (
              <tr key={`d:${row.key}`} data-day={row.key}>
                <th scope="row">{row.label}</th>
                <td>{formatTokens(row)}</td>
                <td class="cost">{formatCost(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details>
        <summary>Budgets and prices</summary>
        <BudgetForm key={JSON.stringify(costs.budgets)} budgets={costs.budgets} />
        <PriceForm prices={costs.prices} custom={costs.customPrices} />
      </details>
    </section>
  );
}

export function HistoryView() {
  const [confirmClear, setConfirmClear] = useState(false);
  const [query, setQuery] = useState('');
  const { conversations, conversation: open, search } = state.value;
  const searching = query.trim() !== '';
  return (
    <section class="history" aria-label="Conversations">
      <h2>Conversations</h2>
      <input
        type="search"
        class="history-search"
        placeholder="Search messages and agent steps"
        aria-label="Search history"
        value={query}
        onInput={(event) => {
          setQuery(event.currentTarget.value);
          searchHistory(event.currentTarget.value);
        }}
      />
      {searching ? (
        search && search.query === query && <SearchResults query={search.query} hits={search.hits} />
      ) : (
        <>
          {conversations.length === 0 && <p class="muted">No conversations yet.</p>}
          {groupByDate(conversations, Date.now()).map((group) => (
            <div class="history-group" key={group.label}>
              <h3>{group.label}</h3>
              <ul>
                {group.conversations.map((c) => (
                  <ConversationRow key={c.id} conversation={c} current={c.id === open?.id} />
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
      <Costs />
      <ImportExport />
      {conversations.length > 0 && (
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirmClear) clearHistory();
            setConfirmClear(!confirmClear);
          }}
        >
          {confirmClear ? 'Click again to delete every conversation' : 'Clear history'}
        </button>
      )}
    </section>
  );
}
