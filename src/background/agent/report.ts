/** Jawad's own account of a task it had to end: why, and what was done up to then. */
import type { AgentStep } from '../../protocol';

function line(step: AgentStep): string {
  const what = step.target?.name ? `${step.tool} “${step.target.name.slice(0, 60)}”` : step.tool;
  const how = step.status === 'done' ? 'done' : step.status === 'denied' ? 'denied' : step.status === 'failed' ? `failed (${step.result?.summary ?? 'error'})` : step.status;
  return `${step.index}. ${what}: ${how}`;
}

export function progressReport(steps: readonly AgentStep[], reason: string): string {
  const done = steps.filter((step) => step.status === 'done').length;
  const list = steps.length ? `\n\nSteps (${done} of ${steps.length} done):\n${steps.map(line).join('\n')}` : '\n\nNo step was taken.';
  return `\n\n**${reason}**${list}`;
}
