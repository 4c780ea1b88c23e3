import Dexie, { type DBCore, type DBCoreMutateRequest, type EntityTable } from 'dexie';
import type { RequestShape } from '../background/llm/request-shape';
import type { AgentStep, Budgets, Product, Conversation, Grant, HarborOptions, Memory, ModelPrice, ProviderSettings, ResearchSettings, StoredMessage, UsageRecord, VoiceSettings, WorkflowPlan } from '../protocol';

/** One line of a workflow's journal. */
export interface JournalEntry {
  seq?: number;
  workflowId: string;
  at: number;
  /** What happened ("planned", "approved", "step-start", "step-end", "resumed", …). */
  kind: string;
  stepId?: string;
  detail?: string;
}

/**
 * A stored message plus what only the background needs: the page text that was attached (so later
 * turns keep the context) and the exact prompt when it differs from what the user sees.
 */
export interface MessageRow extends StoredMessage {
  pageContext?: string;
  prompt?: string;
  /** The answer came from the agent loop (a retry runs it as an agent again). */
  agent?: boolean;
  /** What memory recalled for this turn, as the model was given it (user turns). */
  memoryContext?: string;
  /** The user asked memory to leave this message out of recall. */
  forgotten?: boolean;
}

export type SettingsRow =
  | { key: 'provider'; value: ProviderSettings }
  | { key: 'voice'; value: VoiceSettings }
  | { key: 'harbor'; value: HarborOptions }
  | { key: 'research'; value: ResearchSettings }
  /** Which tool-call format works for a model, learned when its server rejects native tools. */
  | { key: 'tool-modes'; value: Record<string, 'native' | 'xml'> }
  /** How to shape requests for a model, learned when its server rejected a field by name. */
  | { key: 'request-shapes'; value: Record<string, RequestShape> }
  // ---- history, memory and cost (issue 14) ----
  /** Prices the user set, by `provider/model`; the built-in defaults fill the rest. */
  | { key: 'prices'; value: Record<string, ModelPrice> }
  | { key: 'budgets'; value: Budgets }
  /** Memory on or off, and whether past conversations count as memory. */
  | { key: 'memory'; value: { enabled: boolean } }
  /** The external agent bridge: on or off, and the relay's URL. */
  | { key: 'bridge'; value: { enabled: boolean; url: string } };

/** A bridge client the user paired: its token is kept only as a SHA-256 hash. */
export interface BridgeClientRow {
  id: string;
  name: string;
  tokenHash: string;
  pairedAt: number;
}


/** A page as Jawad read it: its text (cut), its product facts, when. */
export interface CachedPage {
  url: string;
  site: string;
  title: string;
  markdown: string;
  product: Product | null;
  visitedAt: number;
}

/**
 * Imported rows of one table, packed a thousand to a record: IndexedDB costs ~0.15 ms per record
 * written here (measured in both browsers), so 120k rows take 20 s one by one and 1 s packed.
 */
export interface QueuedChunk {
  id: string;
  table: 'messages' | 'steps';
  /** The conversations the rows belong to: opening one of them writes its rows first. */
  conversationIds: string[];
  rows: MessageRow[] | AgentStep[];
}

/** A piece of the saved search index (src/db/saved-index.ts): its head `history`, its rest, its shards. */
export interface SearchSnapshot {
  id: string;
  data: unknown;
}

/** A row written, rewritten or deleted, after the write: what the search index follows. */
export type RowChange =
  | { table: string; type: 'put'; values: readonly unknown[] }
  | { table: string; type: 'delete'; keys: readonly unknown[] }
  | { table: string; type: 'clear' }
  /** Rows in a primary-key range went: which ones is unknown without reading them first. */
  | { table: string; type: 'range-deleted' };

/**
 * The extension's IndexedDB. It lives in the extension's own origin, so content scripts (which run
 * in the page's origin) cannot open it: that is why the API key is kept here and not in
 * storage.local, which content scripts can read.
 *
 * Schema changes: change the one declaration in the constructor and raise its version; a block for
 * an older version is needed only to carry an upgrade() that rewrites rows.
 */
export class JawadDatabase extends Dexie {
  conversations!: EntityTable<Conversation, 'id'>;
  messages!: EntityTable<MessageRow, 'id'>;
  settings!: EntityTable<SettingsRow, 'key'>;
  /** The agent's action log, one row per tool call. */
  steps!: EntityTable<AgentStep, 'id'>;
  /** Harbor's persisted allow-site grants (session grants live in storage.session). */
  grants!: EntityTable<Grant, 'id'>;
  /** One row per model call: what the cost meter and the trace view read. */
  usage!: EntityTable<UsageRecord, 'requestId'>;
  /** Paired bridge clients (src/db/bridge-store.ts). */
  bridgeClients!: EntityTable<BridgeClientRow, 'id'>;
  /** Facts to remember: from the user, a conversation or a page (see memory.ts). */
  memories!: EntityTable<Memory, 'id'>;
  /** Recently read pages (seed 003's page cache), bounded; cleared with history. */
  pages!: EntityTable<CachedPage, 'url'>;
  private readonly changeListeners = new Set<(change: RowChange) => void>();
  /** Research workflows: the whole plan (steps, evidence, tabs), rewritten on every change. */
  workflows!: EntityTable<WorkflowPlan, 'id'>;
  /** What happened to each workflow, in order: what a restart resumes from and what a reader audits. */
  workflowJournal!: EntityTable<JournalEntry, 'seq'>;
  /** Imported messages and steps, packed, until they are written as rows (src/db/import-queue.ts). */
  importQueue!: EntityTable<QueuedChunk, 'id'>;
  /** The search index's last saved state (src/db/search-index.ts). */
  searchSnapshot!: EntityTable<SearchSnapshot, 'id'>;

  constructor(name = 'jawad') {
    super(name);
    // One declaration of today's schema: Dexie (3 and later) compares it with the installed one and
    // adds what is missing, so older versions need no block of their own (and each block cost
    // every background start about a millisecond). Versions: 1 conversations, messages, settings;
    // 2 steps, grants; 3 usage; 4 the providers' schema (issue 11); 5 memories, pages; 6 bridge
    // clients; 7 research workflows and their journal (issue 12); 8 history at scale (issue 14):
    // the import queue and the saved search index.
    this.version(8).stores({
      conversations: 'id, updatedAt',
      messages: 'id, conversationId, [conversationId+createdAt], status',
      settings: 'key',
      steps: 'id, conversationId, [conversationId+createdAt], status',
      grants: 'id, [site+level]',
      usage: 'requestId, createdAt, conversationId, messageId, [provider+model]',
      memories: 'id, updatedAt, site',
      pages: 'url, visitedAt',
      bridgeClients: 'id, tokenHash',
      workflows: 'id, status, updatedAt',
      workflowJournal: '++seq, workflowId',
      importQueue: 'id, *conversationIds',
      searchSnapshot: 'id',
    });
    this.use({ stack: 'dbcore', name: 'row-changes', create: (down) => this.reportChanges(down) });
  }

  /** Calls `listener` after each write to any table; returns the function that stops it. */
  onChange(listener: (change: RowChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Every write goes through DBCore's mutate (add, put, update, modify, delete, clear), with the
   * full new rows: listening here cannot miss a write path the way table hooks miss clear().
   */
  private reportChanges(down: DBCore): Partial<DBCore> {
    return {
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: async (request: DBCoreMutateRequest) => {
            const result = await table.mutate(request);
            if (this.changeListeners.size > 0) this.emit(changeOf(name, request));
            return result;
          },
        };
      },
    };
  }

  private emit(change: RowChange): void {
    for (const listener of this.changeListeners) listener(change);
  }
}

function changeOf(table: string, request: DBCoreMutateRequest): RowChange {
  switch (request.type) {
    case 'add':
    case 'put':
      return { table, type: 'put', values: request.values };
    case 'delete':
      return { table, type: 'delete', keys: request.keys };
    case 'deleteRange':
      // Range type 3 is "any key": Table.clear() and a collection over the whole table.
      return request.range.type === 3 ? { table, type: 'clear' } : { table, type: 'range-deleted' };
  }
}

let shared: JawadDatabase | undefined;

export function database(): JawadDatabase {
  shared ??= new JawadDatabase();
  return shared;
}
