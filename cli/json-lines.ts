/**
 * The runner's output on stdout: one JSON object per line, so a script can read it line by line
 * (`jq -c 'select(.type == "step")'`). Fields are always present (null when unknown) so consumers
 * need not tell "missing" from "not yet".
 */
import type { AgentStep, StepStatus, StoredMessage } from '../src/protocol';

/** A step that will not change any more. */
const FINISHED: ReadonlySet<StepStatus> = new Set(['done', 'failed', 'denied', 'stopped', 'interrupted']);

export function isFinished(step: AgentStep): boolean {
  return FINISHED.has(step.status);
}

export function stepLine(step: AgentStep): string {
  return JSON.stringify({
    type: 'step',
    index: step.index,
    tool: step.tool,
    params: step.params,
    site: step.site,
    level: step.level,
    critical: step.critical,
    promptRaised: step.promptRaised,
    decision: step.decision ?? null,
    status: step.status,
    result: step.result ?? null,
  });
}

export function answerLine(answer: StoredMessage): string {
  return JSON.stringify({
    type: 'answer',
    status: answer.status,
    text: answer.content,
    ...(answer.usage ? { usage: answer.usage } : {}),
    ...(answer.error ? { error: answer.error } : {}),
  });
}

/** When the runner itself fails (no browser, a timeout): the last line instead of an answer. */
export function errorLine(message: string): string {
  return JSON.stringify({ type: 'error', message });
}

/**
 * Prints each step once, when it finishes; `flush` prints whatever had not finished when the
 * task ended (a step still asking when the task was stopped), in index order.
 */
export class StepPrinter {
  private readonly printed = new Set<string>();

  constructor(private readonly write: (line: string) => void) {}

  onStep(step: AgentStep): void {
    if (!isFinished(step) || this.printed.has(step.id)) return;
    this.printed.add(step.id);
    this.write(stepLine(step));
  }

  flush(steps: AgentStep[]): void {
    for (const step of [...steps].sort((a, b) => a.index - b.index)) {
      if (this.printed.has(step.id)) continue;
      this.printed.add(step.id);
      this.write(stepLine(step));
    }
  }
}
