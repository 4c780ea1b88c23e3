import Dexie, { type EntityTable } from 'dexie';
import type { AgentStep, Conversation, Grant, HarborOptions, ProviderSettings, StoredMessage, UsageRecord, VoiceSettings, WorkflowPlan } from '../protocol';

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
}

export type SettingsRow =
  | { key: 'provider'; value: ProviderSettings }
  | { key: 'voice'; value: VoiceSettings }
  | { key: 'harbor'; value: HarborOptions }
  /** Which tool-call format works for a model, learned when its server rejects native tools. */
  | { key: 'tool-modes'; value: Record<string, 'native' | 'xml'> };

/**
 * The extension's IndexedDB. It lives in the extension's own origin, so content scripts (which run
 * in the page's origin) cannot open it: that is why the API key is kept here and not in
 * storage.local, which content scripts can read.
 *
 * Schema changes: add a new `this.version(n)` block below the last one; never edit an old one.
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
  /** Research workflows: the whole plan (steps, evidence, tabs), rewritten on every change. */
  workflows!: EntityTable<WorkflowPlan, 'id'>;
  /** What happened to each workflow, in order: what a restart resumes from and what a reader audits. */
  workflowJournal!: EntityTable<JournalEntry, 'seq'>;

  constructor(name = 'jawad') {
    super(name);
    this.version(1).stores({
      conversations: 'id, updatedAt',
      messages: 'id, conversationId, [conversationId+createdAt], status',
      settings: 'key',
    });
    this.version(2).stores({
      steps: 'id, conversationId, [conversationId+createdAt], status',
      grants: 'id, [site+level]',
    });
    this.version(3).stores({
      usage: 'requestId, createdAt, conversationId, messageId, [provider+model]',
    });
    // Research mode (issue 12): the plans with their steps and evidence, and the journal of every change.
    this.version(6).stores({
      workflows: 'id, status, updatedAt',
      workflowJournal: '++seq, workflowId',
    });
  }
}

let shared: JawadDatabase | undefined;

export function database(): JawadDatabase {
  shared ??= new JawadDatabase();
  return shared;
}
