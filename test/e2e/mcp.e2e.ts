/**
 * The official MCP SDK client drives `npx jawad mcp --launch <browser>`: it lists the tools and
 * runs tab new → snapshot → click on a fixture in a real browser with Jawad, every step through
 * Jawad's step gate (the launcher answers prompts allow-once, as `--approve allow-once` says).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { freePort } from '../support/ports';
import { browsersUnderTest } from './support/extension-browser';

const ROOT = resolve(import.meta.dirname, '../..');

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? '').join('\n');
}

for (const browserName of browsersUnderTest()) {
  describe(`jawad mcp --launch ${browserName}`, () => {
    let client: Client;
    let fixtures: FixtureServer;
    let stderr = '';
    const logged: string[] = [];
    /** The launcher's config folder (its pairing key), this suite's own: removed with it. */
    let configDir = '';

    beforeAll(async () => {
      fixtures = await startFixtureServer();
      configDir = mkdtempSync(join(tmpdir(), 'jawad-mcp-'));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'bin/jawad.mjs'), 'mcp', '--launch', browserName, '--port', String(await freePort()), '--approve', 'allow-once', '--name', 'mcp-test'],
        cwd: ROOT,
        env: { ...(process.env as Record<string, string>), JAWAD_CONFIG_DIR: configDir },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      client = new Client({ name: 'jawad-e2e', version: '1.0.0' });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(String(notification.params.data)));
      await client.connect(transport);
    });
    afterAll(async () => {
      await client?.close();
      await fixtures?.close();
      if (configDir) rmSync(configDir, { recursive: true, force: true });
    });

    it('lists the bridge commands as tools with JSON Schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['check', 'click', 'dblclick', 'fill', 'focus', 'get', 'hover', 'is', 'open', 'press', 'select', 'snapshot', 'tab', 'type', 'uncheck']);
      const fill = tools.find((tool) => tool.name === 'fill')!;
      expect(fill.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['ref', 'value']) });
      const snapshot = tools.find((tool) => tool.name === 'snapshot')!;
      expect(Object.keys(snapshot.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['waitForText', 'waitForTextGone', 'waitSeconds']));
    });

    it('runs snapshot and click on a fixture page in the real browser', async () => {
      // The launcher pairs in the popup once the browser is up; calls before that are refused clearly.
      const deadline = Date.now() + 60_000;
      let opened = await client.callTool({ name: 'tab', arguments: { action: 'new', url: `${fixtures.url}/bridge-form.html` } });
      while (opened.isError && textOf(opened).startsWith('NOT_PAIRED') && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 250));
        opened = await client.callTool({ name: 'tab', arguments: { action: 'new', url: `${fixtures.url}/bridge-form.html` } });
      }
      expect(opened.isError, `${textOf(opened)}\n${stderr}`).toBeFalsy();

      const snapshot = textOf(await client.callTool({ name: 'snapshot', arguments: {} }));
      const save = snapshot.split('\n').find((line) => line.includes('button "Save profile"'))?.match(/\[ref=([a-z0-9]+)\]/)?.[1];
      expect(save, snapshot).toBeTruthy();
      // The click waits on a Harbor prompt (the launcher answers it): the call hears so meanwhile.
      const notices: string[] = [];
      const clicked = await client.callTool({ name: 'click', arguments: { ref: save } }, undefined, { onprogress: (progress) => void notices.push(progress.message ?? '') });
      expect(clicked.isError, textOf(clicked)).toBeFalsy();
      expect(notices[0]).toMatch(/^Waiting for the user to allow click/);
      expect(logged).toContainEqual(expect.stringMatching(/^Waiting for the user to allow click/));
      // Read once the page says so, and told how the wait went above the outline.
      const saved = textOf(await client.callTool({ name: 'snapshot', arguments: { waitForText: 'Saved:' } }));
      expect(saved).toMatch(/^\(waited [\d.]+ s: the page now shows “Saved:”\)$/m);
      expect(saved).toContain('Saved:');
      const never = textOf(await client.callTool({ name: 'snapshot', arguments: { waitForText: 'Account deleted', waitSeconds: 0.3 } }));
      expect(never).toMatch(/^\(waited [\d.]+ s for the page to show “Account deleted”, and it has not: this is the page as it stands\)$/m);
      // The launcher logs its answer once the prompt has closed, which may come after the result.
      await expect.poll(() => stderr).toMatch(/Prompt for click → allow-once/);
    });
  });
}
