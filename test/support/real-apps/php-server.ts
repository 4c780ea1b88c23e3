/** PHP's built-in web server on loopback, for real PHP applications in the tests. */
import { freePort } from '../ports';
import { startServerProcess, waitUntilServing } from './server-process';

export interface PhpServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `php -S` serving `docroot` through `router` (on `port`, when the application must know
 * its address beforehand), and waits until `probePath` answers.
 */
export async function startPhpServer(docroot: string, router: string, probePath: string, env: NodeJS.ProcessEnv = {}, port?: number): Promise<PhpServer> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Its own process group: with PHP_CLI_SERVER_WORKERS the server forks workers, which must stop with it.
  const server = await startServerProcess('php', ['-S', `127.0.0.1:${port}`, '-t', docroot, router], env, (child) => waitUntilServing(`${url}${probePath}`, child, 30_000));
  return { url, stop: server.stop };
}

/**
 * A router for `php -S` in front of an application whose front controller is `index.php` (WordPress,
 * phpMyAdmin): a file that is not PHP is served as it is, a folder by its `index.php`, a PHP file by
 * running it where it lies, anything else by the root's `index.php`. `prelude`: PHP statements run
 * first on every request (marking it as this run's).
 */
export function frontControllerRouter(root: string, prelude: string): string {
  return `<?php
${prelude}
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = '${root}' . $path;
if (is_dir($file)) $file = rtrim($file, '/') . '/index.php';
if (is_file($file) && !str_ends_with($file, '.php')) return false;
$script = is_file($file) ? $file : '${root}/index.php';
$_SERVER['SCRIPT_NAME'] = substr($script, strlen('${root}'));
$_SERVER['SCRIPT_FILENAME'] = $script;
$_SERVER['PHP_SELF'] = $_SERVER['SCRIPT_NAME'];
chdir(dirname($script));
require $script;
`;
}
