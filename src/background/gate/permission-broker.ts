/**
 * Permission prompts in flight: the gate waits on one; the answer of the principal that owns the
 * task (or a stop) settles it. The transport does not matter: a decision from anyone else — another
 * paired client, another sidebar pretending — is refused.
 */
import { JawadError, type Decision } from '../../protocol';

interface Pending {
  principal: string;
  settle: (decision: Decision) => void;
}

/** The principal of everything the user starts in the sidebar or the runner. */
export const USER = 'user';

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();

  /** Waits for `principal`'s decision on a step; a stop (signal) counts as deny-all. */
  wait(stepId: string, signal: AbortSignal, principal = USER): Promise<Decision> {
    return new Promise((resolve) => {
      const settle = (decision: Decision) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(stepId);
        resolve(decision);
      };
      const onAbort = () => settle('deny-all');
      if (signal.aborted) return settle('deny-all');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(stepId, { principal, settle });
    });
  }

  respond(stepId: string, decision: Decision, principal = USER): void {
    const waiting = this.pending.get(stepId);
    if (!waiting) throw new JawadError('NOT_FOUND', 'That permission request is no longer waiting: the task ended, was stopped, or Jawad restarted.');
    if (waiting.principal !== principal) throw new JawadError('PERMISSION_DENIED', 'Only the one who started this task can answer its permission requests.');
    waiting.settle(decision);
  }

  isWaiting(stepId: string): boolean {
    return this.pending.has(stepId);
  }
}
