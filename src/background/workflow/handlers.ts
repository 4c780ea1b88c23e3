/** Research mode's rows of the sidebar's handler table. */
import type { Handler } from '../handlers';
import type { SettingsStore } from '../../db/settings';
import type { WorkflowRunner } from './runner';

export type WorkflowRequestType = 'START_WORKFLOW' | 'APPROVE_WORKFLOW' | 'CONFIRM_WORKFLOW_STEP' | 'CANCEL_WORKFLOW' | 'GET_WORKFLOWS' | 'GET_RESEARCH_SETTINGS' | 'SAVE_RESEARCH_SETTINGS';
export type WorkflowHandlers = { [T in WorkflowRequestType]: Handler<T> };

export function createWorkflowHandlers(
  workflows: Pick<WorkflowRunner, 'start' | 'approve' | 'confirmStep' | 'cancel' | 'shown'>,
  settings: Pick<SettingsStore, 'loadResearch' | 'saveResearch'>,
): WorkflowHandlers {
  return {
    START_WORKFLOW: async (request) => {
      await workflows.start(request.payload.intent, request.payload.windowId, request.requestId);
    },
    APPROVE_WORKFLOW: ({ payload }) => workflows.approve(payload.workflowId, payload.steps, payload.keepTabs, payload.parallel),
    CONFIRM_WORKFLOW_STEP: (request) => workflows.confirmStep(request.payload.workflowId, request.payload.stepId, request.payload.run),
    CANCEL_WORKFLOW: (request) => workflows.cancel(request.payload.workflowId),
    GET_WORKFLOWS: async (request, { reply }) => {
      for (const plan of await workflows.shown()) reply({ type: 'WORKFLOW_UPDATE', requestId: request.requestId, payload: plan });
    },
    GET_RESEARCH_SETTINGS: async (request, { reply }) => reply({ type: 'RESEARCH_SETTINGS', requestId: request.requestId, payload: await settings.loadResearch() }),
    SAVE_RESEARCH_SETTINGS: async (request, { broadcast }) => broadcast({ type: 'RESEARCH_SETTINGS', requestId: request.requestId, payload: await settings.saveResearch(request.payload) }),
  };
}
