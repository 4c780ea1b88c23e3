/**
 * A realistic task on a real application, played by a scripted model that finds its targets by
 * role and name in the snapshot text it is given, as a real model does, and checked in the
 * application's own state (its database, files or HTTP answers) — never in the DOM.
 */
import type { Responder } from '../provider-server';

/** A running application the tests can reach and stop. */
export interface RealApp {
  url: string;
  stop(): Promise<void>;
}

export interface AppTask<App extends RealApp> {
  name: string;
  /** What the user asks. */
  prompt: string;
  /** Where the tab starts, relative to the application. */
  start: string;
  /**
   * What shows the start page finished loading, as a person would wait for it (scripts that turn
   * forms into widgets after load); the model never sees this.
   */
  ready?: string;
  model(app: App): Responder;
  /** Throws unless the application's own state shows the task done (`answer`: what the agent told the user). */
  verify(app: App, finalUrl: string, answer: string): Promise<void>;
}

export function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** Text as an SQL string literal, for checks in an application's database (the values are the tests' own). */
export const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;
