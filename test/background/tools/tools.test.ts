import { describe, expect, it, vi } from 'vitest';

// The tools' run() functions call the extension API (tested end to end in real browsers); these
// tests only read their definitions, so the API module just has to load outside an extension.
vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-reader', () => ({ readActivePage: vi.fn() }));
vi.mock('../../../src/background/page-scripts', () => ({ contextTab: vi.fn(), activeTab: vi.fn(), askFrame: vi.fn(), injectPageScript: vi.fn(), queryActiveTab: vi.fn(), PAGE_AGENT: {}, READER: {} }));

import { TOOLS } from '../../../src/background/tools';
import { openUrl } from '../../../src/background/tools/open-url';
import { newTab } from '../../../src/background/tools/new-tab';
import { PermissionLevel, targetOf } from '../../../src/protocol';
import { ToolRegistry } from '../../../src/background/tools/registry';

/** Parameters every page tool has: which element, not what happens to it. */
const TARGET_PARAMS = new Set(['ref', 'selector']);

/** A parameter's effect as its tool declares it, or undefined when the tool does not. */
function declaredEffect(tool: (typeof TOOLS)[number], parameter: string): string | undefined {
  const { effects } = tool;
  if (TARGET_PARAMS.has(parameter)) return effects.target ? 'target' : undefined;
  if ([effects.text, effects.keys, effects.url, effects.tab].includes(parameter)) return 'declared';
  return tool.inertParams?.includes(parameter) ? 'inert' : undefined;
}

describe('the tool list', () => {
  it('declares the effect of every parameter that carries free text, keys, a URL or a tab', () => {
    const undeclared: string[] = [];
    for (const listing of new ToolRegistry(TOOLS).list()) {
      const tool = TOOLS.find((known) => known.name === listing.function.name)!;
      const properties = (listing.function.parameters as { properties?: Record<string, { type?: string; enum?: unknown[] }> }).properties ?? {};
      for (const [parameter, schema] of Object.entries(properties)) {
        // Closed choices (enums), numbers other than tab ids and booleans carry nothing out of the page.
        const carries = (schema.type === 'string' && !schema.enum) || /tab/i.test(parameter);
        if (carries && !declaredEffect(tool, parameter)) undeclared.push(`${tool.name}.${parameter}`);
      }
    }
    expect(undeclared).toEqual([]);
  });


  it('has unique snake_case names, a description and a permission level for every tool', () => {
    const names = TOOLS.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of TOOLS) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(PermissionLevel.safeParse(tool.level).success).toBe(true);
    }
  });

  it('marks reading as read-only and anything that changes tabs as navigate', () => {
    const level = (name: string) => TOOLS.find((tool) => tool.name === name)?.level;
    expect(level('read_page')).toBe('read-only');
    expect(level('snapshot')).toBe('read-only');
    expect(level('list_tabs')).toBe('read-only');
    for (const name of ['open_url', 'new_tab', 'switch_tab', 'close_tab', 'go_back', 'go_forward', 'reload_tab']) expect(level(name), name).toBe('navigate');
    for (const name of ['click', 'double_click', 'fill', 'type_text', 'press_key', 'select_option', 'check', 'uncheck']) expect(level(name), name).toBe('interact');
    for (const name of ['hover', 'focus', 'scroll', 'get', 'is', 'highlight']) expect(level(name), name).toBe('read-only');
  });

  it('makes every action name a target — a snapshot ref or a selector, the ref winning when both come', () => {
    const click = TOOLS.find((tool) => tool.name === 'click')!;
    expect(click.params.safeParse({ ref: 'e12' }).success).toBe(true);
    expect(click.params.safeParse({ ref: 'f1e3' }).success).toBe(true);
    expect(click.params.safeParse({ selector: '#buy' }).success).toBe(true);
    expect(click.params.safeParse({}).success).toBe(false);
    const both = click.params.safeParse({ ref: 'e1', selector: '#buy' });
    expect(both.success && targetOf(both.data as { ref?: string; selector?: string })).toEqual({ ref: 'e1' });
    expect(click.params.safeParse({ ref: 'button-1' }).success).toBe(false);
  });

  it.each(['javascript:alert(1)', 'data:text/html,<script>1</script>', 'chrome://settings', 'file:///etc/passwd', 'not a url'])(
    'will not open %s',
    (url) => {
      expect(openUrl.params.safeParse({ url }).success).toBe(false);
      expect(newTab.params.safeParse({ url }).success).toBe(false);
    },
  );

  it('opens ordinary web addresses', () => {
    expect(openUrl.params.safeParse({ url: 'https://example.org/a?b=c' }).success).toBe(true);
    expect(newTab.params.safeParse({ url: 'http://127.0.0.1:8080/' }).data).toEqual({ url: 'http://127.0.0.1:8080/', active: true });
  });
});
