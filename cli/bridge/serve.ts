/** `jawad bridge`: the relay alone, for agents that speak the bridge's JSON protocol themselves. */
import type { BridgeOptions } from '../args';
import type { Output } from '../run';
import { Relay } from './relay';

export async function serveBridge(options: BridgeOptions, output: Output, stopped: Promise<void>): Promise<number> {
  const relay = new Relay({ port: options.port, log: output.progress });
  try {
    await relay.start();
  } catch (error) {
    output.progress(`jawad bridge: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  output.progress(`Bridge relay on ${relay.url}. In Jawad, open Bridge (sidebar) or the popup, set this URL and press Connect.`);
  output.progress('Agents connect to the same URL, send {"type":"hello","name":…,"code":…} and then {"id":…,"type":"snapshot"} commands.');
  await stopped;
  await relay.close();
  return 0;
}
