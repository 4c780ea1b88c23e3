import { render } from 'preact';
import browser from 'webextension-polyfill';
import { App } from './components/App';
import { startSidebar } from './store';
import './styles.css';

async function main(): Promise<void> {
  const windowId = await browser.windows.getCurrent().then((w) => w.id).catch(() => undefined);
  startSidebar(windowId);
  render(<App />, document.getElementById('app')!);
}

void main();
