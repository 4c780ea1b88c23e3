/**
 * `npm run demo [-- --browser firefox]`: watch the agent do a real multi-step task, in the real
 * sidebar, and answer its permission prompts yourself — no API key needed.
 *
 * It serves the fixture shop (test/fixtures/agent-shop) and plays the model with a scripted agent
 * that reads each snapshot for its refs (test/support/shop-task.ts), opens the browser with Jawad,
 * and leaves the task typed in the message box with "Act on page" on. Press Send.
 * Without a display it runs the browser on a virtual one (xvfb-run), as `npm start` does.
 */
import { spawnSync } from 'node:child_process';
import { saveProviderSettings } from '../cli/agent-task';
import { ensureBuild, launchJawad, type BrowserName } from '../cli/launch';
import { startFixtureServer } from '../test/support/fixture-server';
import { startProviderServer } from '../test/support/provider-server';
import { SHOP_START, SHOP_TASK, shopTaskModel } from '../test/support/shop-task';
import { ensureBrowsers, XVFB } from './ensure-browsers.mjs';

const browserName: BrowserName = process.argv.includes('firefox') ? 'firefox' : 'chromium';

function reRunOnVirtualDisplay(): never {
  ensureBrowsers([XVFB]);
  console.log('No display found: running the browser on a virtual display (xvfb-run). Connect a display to see it.');
  const result = spawnSync('xvfb-run', ['-a', 'npx', 'tsx', ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, JAWAD_DEMO_XVFB: '1' } });
  process.exit(result.status ?? 1);
}

async function main(): Promise<void> {
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !process.env.JAWAD_DEMO_XVFB) reRunOnVirtualDisplay();
  ensureBrowsers();
  await ensureBuild(browserName, console.log);
  const fixtures = await startFixtureServer();
  const provider = await startProviderServer();
  provider.setResponder(shopTaskModel());
  const jawad = await launchJawad(browserName, { headed: true });
  await saveProviderSettings(jawad.host, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: 'test-model', timeoutSeconds: 30 });
  await jawad.openTab(`${fixtures.url}${SHOP_START}`);
  await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid="agent-toggle"]'), null, 'the sidebar');
  const on = await jawad.sidebar.eval((win) => (win.document.querySelector('[data-testid="agent-toggle"]') as HTMLInputElement).checked, null);
  if (!on) await jawad.sidebar.click('[data-testid="agent-toggle"]');
  await jawad.sidebar.fill('#composer-input', SHOP_TASK);
  console.log(`Jawad is open in ${browserName} on the fixture shop (${fixtures.url}${SHOP_START}).`);
  console.log('The task is typed in the sidebar with “Act on page” on: press Send, then answer the permission prompt.');
  console.log('The model is a scripted stand-in that reads each snapshot like a real one would. Ctrl+C to quit.');
  const quit = async () => {
    await jawad.close().catch(() => undefined);
    await provider.close();
    await fixtures.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void quit());
  process.on('SIGTERM', () => void quit());
  jawad.browser.on('disconnected', () => void quit());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
