/** Permission prompts in flight: the agent waits on one; the sidebar's answer (or a stop) settles it. */
import { JawadError, type Decision } from '../../protocol';

export class PermissionBroker {
  private readonly pending = new Map<string, (decision: Decision) => void>();

  /** Waits for the user's decision on a step; a stop (signal) counts as deny-all. */
  wait(stepId: string, signal: AbortSignal): Promise<Decision> {
    return new Promise((resolve) => {
      const settle = (decision: Decision) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(stepId);
        resolve(decision);
      };
      const onAbort = () => settle('deny-all');
      if (signal.aborted) return settle('deny-all');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(stepId, settle);
    });
  }

  respond(stepId: string, decision: Decision): void {
    const settle = this.pending.get(stepId);
    if (!settle) throw new JawadError('NOT_FOUND', 'That permission request is no longer waiting: the task ended, was stopped, or Jawad restarted.');
    settle(decision);
  }

  isWaiting(stepId: string): boolean {
    return this.pending.has(stepId);
  }
}
