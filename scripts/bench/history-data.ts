/**
 * A large, deterministic Jawad archive for the history benchmark: 100k messages in 2,000
 * conversations (one of them 2,000 messages long) and 20k agent steps. Words follow a Zipf-like
 * law over a 20k-word vocabulary, so searches meet both rare and very common words.
 */
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type AgentStep, type Archive } from '../../src/protocol';

export interface HistorySize {
  messages: number;
  steps: number;
  conversations: number;
}

export const BENCH_SIZE: HistorySize = { messages: 100_000, steps: 20_000, conversations: 2_000 };

/** Mulberry32: a tiny seeded PRNG, so every run measures the same data. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'gi', 'ha', 'ju', 'be', 'fo', 'ri', 'tu', 'wa', 'yo'];

export function vocabulary(size: number): string[] {
  const words: string[] = [];
  for (let i = 0; words.length < size; i++) {
    let n = i;
    let word = '';
    do {
      word += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    words.push(word.length < 3 ? `${word}x` : word);
  }
  return words;
}

export function benchArchive(size: HistorySize = BENCH_SIZE, seed = 14): { archive: Archive; words: string[] } {
  const rand = random(seed);
  const words = vocabulary(20_000);
  // Rank r is drawn with probability ~ 1/r (a Zipf law with exponent 1).
  const pick = () => words[Math.min(words.length - 1, Math.floor(Math.exp(rand() * Math.log(words.length + 1))) - 1)]!;
  const sentence = (min: number, max: number) => Array.from({ length: min + Math.floor(rand() * (max - min)) }, pick).join(' ');
  const start = Date.UTC(2025, 0, 1);
  const conversations: Archive['conversations'] = [];
  const messages: Archive['messages'] = [];
  const long = 2_000;
  const perConversation = Math.floor((size.messages - long) / (size.conversations - 1));
  for (let c = 0; c < size.conversations; c++) {
    const id = `bench-c${c}`;
    const count = c === 0 ? long : c === size.conversations - 1 ? size.messages - long - perConversation * (size.conversations - 2) : perConversation;
    const created = start + c * 3_600_000;
    for (let m = 0; m < count; m++) {
      const role = m % 2 === 0 ? 'user' : 'assistant';
      messages.push({ id: `${id}-m${m}`, conversationId: id, role, content: role === 'user' ? sentence(6, 25) : sentence(30, 90), status: 'complete', createdAt: created + m * 1000, requestId: `user-${(c * 100_000 + m).toString(16).padStart(8, '0')}:chat-0000000${m % 10}` });
    }
    conversations.push({ id, title: sentence(3, 7), createdAt: created, updatedAt: created + count * 1000 });
  }
  const assistants = messages.filter((m) => m.role === 'assistant');
  const steps: AgentStep[] = [];
  for (let s = 0; s < size.steps; s++) {
    const answer = assistants[Math.floor(rand() * assistants.length)]!;
    steps.push({
      id: `bench-s${s}`, conversationId: answer.conversationId, messageId: answer.id, requestId: `${answer.requestId}:step-${s.toString(16).padStart(8, '0')}`,
      index: s % 8, createdAt: answer.createdAt + 1 + (s % 8), thinking: sentence(8, 20), tool: s % 3 === 0 ? 'fill' : 'click',
      params: { ref: `e${s % 500}` }, site: 'https://shop.example', url: 'https://shop.example/cart', level: 'interact', critical: false, reasons: [],
      target: { role: 'button', name: sentence(1, 4) }, egress: [], verdict: 'auto-approve', grantable: true, promptRaised: false, decision: 'auto-approve',
      status: 'done', result: { success: true, summary: `clicked “${pick()}”` }, duration: 40,
    });
  }
  return {
    archive: { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: start, conversations, messages, steps, usage: [], memories: [], prices: {} },
    words,
  };
}
