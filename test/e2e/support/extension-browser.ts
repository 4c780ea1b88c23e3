/**
 * The launch code lives in cli/launch.ts (the headless runner uses it too); tests import it here.
 * launchJawad here also keeps the E2E cut-off's books (see cut-off-state.ts): a browser whose suite
 * was stopped is not launched again, and every launch's time and outcome count.
 */
import { launchJawad as launch, type BrowserName, type JawadBrowser, type LaunchOptions } from '../../../cli/launch';
import { launchUnderCutOff } from './cut-off-state';

export * from '../../../cli/launch';

export function launchJawad(name: BrowserName, options: LaunchOptions = {}): Promise<JawadBrowser> {
  return launchUnderCutOff(name, () => launch(name, options));
}
