/** A server a real application needs (PHP's web server, Dovecot, a Python application's), run in a process group of its own. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  /** Stops the server and every process it forked (workers, login processes). */
  stop(): Promise<void>;
}

/**
 * Starts `command` in its own process group and waits until `ready` resolves (given the child,
 * to notice it exiting); if it does not, the whole group is killed and the error thrown.
 */
export async function startServerProcess(command: string, args: string[], env: NodeJS.ProcessEnv, ready: (child: ChildProcess) => Promise<void>): Promise<ServerProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  try {
    await ready(child);
  } catch (error) {
    kill('SIGKILL');
    throw error;
  }
  return {
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        kill('SIGTERM');
      }),
  };
}

/** Waits until `url` answers below 500 (a redirect to a login page counts), or `child` exits. */
export async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.spawnfile} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { redirect: 'manual' });
      if (response.status < 500) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}
