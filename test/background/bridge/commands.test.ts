import { describe, expect, it, vi } from 'vitest';
import { CommandError, parseFrameText, planCommand } from '../../../src/background/bridge/commands';
import { createToolRegistry } from '../../../src/background/tools';
import { BRIDGE_COMMAND_TYPES } from '../../../src/protocol/bridge';

// The registry's tools import the extension API and the page scripts; planning never runs them.
vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-reader', () => ({ readActivePage: vi.fn() }));
vi.mock('../../../src/background/page-scripts', () => ({ contextTab: vi.fn(), activeTab: vi.fn(), askFrame: vi.fn(), injectPageScript: vi.fn(), queryActiveTab: vi.fn(), PAGE_AGENT: {}, READER: {} }));

const EXAMPLES: Record<string, Record<string, unknown>> = {
  snapshot: { waitForText: 'Saved', waitSeconds: 5 },
  click: { ref: 'e1', acceptDialog: true },
  dblclick: { ref: 'e1' },
  fill: { ref: 'e1', value: 'text' },
  type: { ref: 'e1', text: 'text', delay: 50 },
  press: { key: 'Enter', ref: 'e1' },
  hover: { ref: 'e1' },
  focus: { ref: 'e1' },
  check: { ref: 'e1' },
  uncheck: { ref: 'e1' },
  select: { ref: 'e1', value: 'option1' },
  tab: { action: 'list' },
  open: { url: 'https://example.com' },
  get: { what: 'text', ref: 'e1' },
  is: { what: 'visible', ref: 'e1' },
};

describe('planCommand', () => {
  it('maps every seed 004 command (its own example) onto a registry tool whose parameters accept it', () => {
    const tools = createToolRegistry();
    for (const type of BRIDGE_COMMAND_TYPES) {
      const plan = planCommand({ id: type, type, params: EXAMPLES[type] });
      const tool = tools.get(plan.tool);
      expect(tool, type).toBeDefined();
      expect(tool!.params.safeParse(plan.args).success, `${type} → ${plan.tool} ${JSON.stringify(plan.args)}`).toBe(true);
    }
  });

  it('passes a snapshot’s wait on to the snapshot tool, and refuses one longer than the tool allows', () => {
    expect(planCommand({ id: 1, type: 'snapshot', params: { page: 2, waitForTextGone: 'Loading…' } }).args).toEqual({ page: 2, waitForTextGone: 'Loading…' });
    expect(() => planCommand({ id: 2, type: 'snapshot', params: { waitForText: 'Saved', waitSeconds: 600 } })).toThrow(/waitSeconds/);
  });

  it('maps the tab actions and names the tab a switch or close touches', () => {
    expect(planCommand({ id: 1, type: 'tab', params: { action: 'new', url: 'https://a.test/' } })).toMatchObject({ tool: 'new_tab', args: { url: 'https://a.test/' } });
    expect(planCommand({ id: 1, type: 'tab', params: { action: 'switch', id: 9 } })).toMatchObject({ tool: 'switch_tab', args: { tabId: 9 }, namedTab: 9 });
    expect(planCommand({ id: 1, type: 'tab', params: { action: 'close', id: 9 } })).toMatchObject({ tool: 'close_tab', namedTab: 9 });
    expect(() => planCommand({ id: 1, type: 'tab', params: { action: 'switch' } })).toThrow(/needs params.id/);
  });

  it('says what is wrong, with the command’s id when it has one', () => {
    const fail = (raw: unknown) => {
      try {
        planCommand(raw);
      } catch (error) {
        return error as CommandError;
      }
      throw new Error('expected a CommandError');
    };
    expect(fail({ id: 3, type: 'teleport' })).toMatchObject({ code: 'UNKNOWN_COMMAND', id: 3, message: expect.stringContaining('snapshot') });
    expect(fail({ id: 4, type: 'click', params: { ref: 5 } })).toMatchObject({ code: 'VALIDATION_ERROR', id: 4, message: expect.stringContaining('ref') });
    expect(fail({ id: 6, type: 'constructor' })).toMatchObject({ code: 'UNKNOWN_COMMAND' });
    expect(fail('click')).toMatchObject({ code: 'BAD_FRAME', id: undefined });
  });

  it('refuses frames that are not JSON or too large before reading them', () => {
    expect(() => parseFrameText('{nope')).toThrow(expect.objectContaining({ code: 'BAD_FRAME' }));
    expect(() => parseFrameText('x'.repeat(11), 10)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    expect(parseFrameText('{"id":1}')).toEqual({ id: 1 });
  });
});
