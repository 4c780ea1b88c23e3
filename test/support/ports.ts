/** Loopback ports for tests. */
import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port free right now: one the system just gave out and took back. Nothing listens on
 * it until a test starts something there (a server to come, or a refused connection to provoke).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((listening, fail) => {
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', listening);
  });
  const { port } = probe.address() as AddressInfo; // a TCP listener, never a pipe name
  await new Promise((closed) => probe.close(closed));
  return port;
}
