/**
 * Seed 001's rule for the mask that keeps the user's input off a tab the agent drives: shown only
 * while the agent runs there and the user is looking at that tab in a focused window.
 */
export interface MaskInputs {
  agentRunning: boolean;
  windowHasFocus: boolean;
  /** The active tab of the agent tab's window. */
  activeTabId: number | undefined;
  agentTabId: number | undefined;
}

export function maskVisible({ agentRunning, windowHasFocus, activeTabId, agentTabId }: MaskInputs): boolean {
  return agentRunning && windowHasFocus && agentTabId !== undefined && activeTabId === agentTabId;
}
