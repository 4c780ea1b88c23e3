import { render } from 'preact';
import browser from 'webextension-polyfill';
import { App } from './components/App';
import { loadMarkdownRenderer } from './components/Markdown';
import { setWindowId, startSidebar } from './store';
import './styles.css';

// Connect and render at once; the window id (needed only to find "this page") arrives meanwhile.
startSidebar();
render(<App />, document.getElementById('app')!);
browser.windows.getCurrent().then((window) => setWindowId(window.id), () => undefined);
setTimeout(() => void loadMarkdownRenderer(), 0);
