import type { AgentStep } from '../../src/protocol';

/** A step of the action log with plain defaults (a running click in c1); tests set what they check. */
export function agentStep(extra: Partial<AgentStep> = {}): AgentStep {
  return {
    id: 's1',
    conversationId: 'c1',
    messageId: 'a1',
    requestId: 'user-00000001',
    index: 0,
    createdAt: 1,
    tool: 'click',
    params: {},
    site: '',
    level: 'interact',
    critical: false,
    reasons: [],
    egress: [],
    verdict: 'ask',
    grantable: true,
    promptRaised: false,
    status: 'running',
    ...extra,
  };
}
