import { chainRoot, JawadError, type BackgroundEvent, type SidebarRequestType } from '../../protocol';
import { importArchive } from '../../db/archive';
import { publicMessage, type ConversationStore } from '../../db/conversations';
import type { JawadDatabase } from '../../db/database';
import { parseImport } from '../../db/import-formats';
import { drainImports } from '../../db/import-queue';
import type { SearchIndex } from '../../db/search-index';
import type { StepStore } from '../../db/steps';
import type { Handler } from '../handlers';
import type { MemoryService } from '../memory/memory-service';
import type { BudgetGuard } from './budget-guard';
import type { CostService } from './cost-service';
import { conversationMarkdown, markdownFilename } from './markdown-export';
import { buildTrace } from './trace';
import { PartAssembler } from './transfer';

export type HistoryRequestType = Extract<
  SidebarRequestType,
  'SEARCH_HISTORY' | 'RENAME_CONVERSATION' | 'PIN_CONVERSATION' | 'EXPORT_MARKDOWN' | 'IMPORT_PART' | 'GET_COSTS' | 'LIST_MEMORIES' | 'SAVE_MEMORY' | 'FORGET_MEMORY' | 'SET_MEMORY_ENABLED' | 'GET_TRACE' | 'SAVE_BUDGETS' | 'SAVE_PRICE' | 'BUDGET_RESPONSE' | 'PREVIEW_RECALL'
>;
export type HistoryHandlers = { [T in HistoryRequestType]: Handler<T> };

export interface HistoryDeps {
  db: JawadDatabase;
  conversations: ConversationStore;
  steps: StepStore;
  search: SearchIndex;
  costs: CostService;
  memory: MemoryService;
  budget: Pick<BudgetGuard, 'respond'>;
  /** Tells every sidebar the conversation list changed. */
  sendConversations: (requestId: string, send: (event: BackgroundEvent) => void) => Promise<void>;
}

const notFound = () => new JawadError('NOT_FOUND', 'That conversation no longer exists.');

export function createHistoryHandlers({ db, conversations, steps, search, costs, memory, budget, sendConversations }: HistoryDeps): HistoryHandlers {
  const imports = new PartAssembler();
  const sendMemories = async (requestId: string, send: (event: BackgroundEvent) => void) => {
    send({ type: 'MEMORIES', requestId, payload: { enabled: await memory.enabled(), memories: await memory.list() } });
  };
  return {
    SEARCH_HISTORY: async (request, { reply }) => {
      const { query } = request.payload;
      reply({ type: 'SEARCH_RESULTS', requestId: request.requestId, payload: { query, hits: await search.search(query) } });
    },
    RENAME_CONVERSATION: async (request, { broadcast }) => {
      if (!(await conversations.rename(request.payload.conversationId, request.payload.title))) throw notFound();
      await sendConversations(request.requestId, broadcast);
    },
    PIN_CONVERSATION: async (request, { broadcast }) => {
      if (!(await conversations.setPinned(request.payload.conversationId, request.payload.pinned))) throw notFound();
      await sendConversations(request.requestId, broadcast);
    },
    EXPORT_MARKDOWN: async (request, { reply }) => {
      const conversation = await conversations.get(request.payload.conversationId);
      if (!conversation) throw notFound();
      const messages = (await conversations.messages(conversation.id)).map(publicMessage);
      const markdown = conversationMarkdown(conversation, messages, await steps.list(conversation.id));
      reply({ type: 'MARKDOWN', requestId: request.requestId, payload: { filename: markdownFilename(conversation), markdown } });
    },
    IMPORT_PART: async (request, { reply, broadcast }) => {
      const text = imports.add(request.payload);
      if (text === undefined) return;
      const result = await importArchive(db, parseImport(text), request.payload.apply);
      reply({ type: 'IMPORT_RESULT', requestId: request.requestId, payload: result });
      if (!result.applied) return;
      await sendConversations(request.requestId, broadcast);
      void drainImports(db).catch((error: unknown) => console.warn('Jawad: imported rows stay queued until the next start', error));
    },
    GET_COSTS: async (request, { reply }) => {
      reply({ type: 'COSTS', requestId: request.requestId, payload: await costs.report(request.payload.conversationId) });
    },
    GET_TRACE: async (request, { reply }) => {
      const { messageId, stepId } = request.payload;
      const step = stepId ? await db.steps.get(stepId) : undefined;
      const from = step ?? (messageId ? await db.messages.get(messageId) : undefined);
      if (!from) throw new JawadError('NOT_FOUND', 'That answer or step no longer exists.');
      const root = chainRoot(from.requestId);
      const rows = {
        messages: (await conversations.messages(from.conversationId)).map(publicMessage),
        steps: await steps.list(from.conversationId),
        usage: await db.usage.where('requestId').startsWith(`${root}:`).toArray(),
      };
      const entries = buildTrace(root, rows, await costs.prices());
      reply({ type: 'TRACE', requestId: request.requestId, payload: { root, conversationId: from.conversationId, from: from.id, fromRequestId: from.requestId, entries } });
    },
    SAVE_BUDGETS: async (request, { broadcast }) => {
      await costs.saveBudgets(request.payload);
      broadcast({ type: 'COSTS', requestId: request.requestId, payload: await costs.report() });
    },
    SAVE_PRICE: async (request, { broadcast }) => {
      await costs.savePrice(request.payload.key, request.payload.price);
      broadcast({ type: 'COSTS', requestId: request.requestId, payload: await costs.report() });
    },
    BUDGET_RESPONSE: (request) => {
      budget.respond(request.payload.id, request.payload.decision === 'continue');
    },
    PREVIEW_RECALL: async (request, { reply }) => {
      const { question, conversationId, windowId } = request.payload;
      const { used } = await memory.recall(question, conversationId, windowId);
      reply({ type: 'RECALL', requestId: request.requestId, payload: { question, used } });
    },
    LIST_MEMORIES: (request, { reply }) => sendMemories(request.requestId, reply),
    SAVE_MEMORY: async (request, { broadcast }) => {
      await memory.save(request.payload);
      await sendMemories(request.requestId, broadcast);
    },
    FORGET_MEMORY: async (request, { broadcast }) => {
      await memory.forget(request.payload.kind, request.payload.id);
      await sendMemories(request.requestId, broadcast);
    },
    SET_MEMORY_ENABLED: async (request, { broadcast }) => {
      await memory.setEnabled(request.payload.enabled);
      await sendMemories(request.requestId, broadcast);
    },
  };
}
