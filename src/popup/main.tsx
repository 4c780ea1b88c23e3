/**
 * The bridge popup: the same store and components as the sidebar (one Port, one protocol), with
 * only the bridge panel (which shows the permission prompts a paired client's steps raise).
 */
import { render } from 'preact';
import { BridgePanel } from '../sidebar/components/BridgePanel';
import { startSidebar } from '../sidebar/store';
import '../sidebar/styles.css';

function Popup() {
  return (
    <div class="app popup-app">
      <BridgePanel />
    </div>
  );
}

startSidebar();
render(<Popup />, document.getElementById('app')!);
