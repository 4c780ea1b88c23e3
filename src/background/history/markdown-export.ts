import type { AgentStep, Conversation, StoredMessage } from '../../protocol';

/** A file name from the title: letters, digits and dashes only, so every system accepts it. */
export function markdownFilename(conversation: Conversation): string {
  const slug = conversation.title.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60).toLowerCase();
  return `${slug || 'conversation'}-${new Date(conversation.createdAt).toISOString().slice(0, 10)}.md`;
}

function stepLine(step: AgentStep): string {
  const target = step.target?.name ? ` “${step.target.name}”` : '';
  const outcome = step.result?.summary ?? step.status;
  return `- ${step.tool}${target}: ${outcome}`;
}

/** One conversation as Markdown: the title, then each turn with who wrote it, when, and the agent's steps. */
export function conversationMarkdown(conversation: Conversation, messages: StoredMessage[], steps: AgentStep[]): string {
  const lines = [`# ${conversation.title}`, '', `Exported from Jawad · started ${new Date(conversation.createdAt).toISOString()}`, ''];
  for (const message of messages) {
    const who = message.role === 'user' ? 'You' : `Jawad${message.model ? ` (${message.model})` : ''}`;
    lines.push(`## ${who} · ${new Date(message.createdAt).toISOString()}`, '');
    if (message.page) lines.push(`Page: [${message.page.title.replace(/[[\]]/g, '')}](${message.page.url})`, '');
    lines.push(message.content, '');
    const taken = steps.filter((step) => step.messageId === message.id).sort((a, b) => a.index - b.index);
    if (taken.length > 0) lines.push('Steps:', '', ...taken.map(stepLine), '');
  }
  return lines.join('\n');
}
