/** The `jawad` command: parses the command line and runs it; the exit code says how it went. */
import { parseCommand, USAGE, UsageError } from './args';
import { runMcp } from './bridge/mcp-server';
import { serveBridge } from './bridge/serve';
import { EXIT_USAGE, runCommand, withJawad, type Output } from './run';
import { saveProviderSettings } from './agent-task';
import { runResearch } from './research';

export async function main(argv: string[], env: NodeJS.ProcessEnv, output: Output): Promise<number> {
  let command;
  try {
    command = parseCommand(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.progress(`jawad: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (command.kind === 'help') {
    output.line(USAGE);
    return 0;
  }
  if (command.kind === 'bridge') return serveBridge(command.options, output, interrupted());
  if (command.kind === 'mcp') return runMcp(command.options, output, env, interrupted());
  if (command.kind === 'run') return runCommand(command.options, output);
  const options = command.options;
  return withJawad(options, output, async (jawad) => {
    await saveProviderSettings(jawad.host, options.settings);
    output.progress(`Planning with ${options.settings.model} at ${options.settings.baseUrl}: ${options.intent}`);
    return runResearch(jawad.host, options, output);
  });
}

/** Resolves on Ctrl-C or a termination request: the long-running commands then close cleanly. */
function interrupted(): Promise<void> {
  return new Promise((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
}

const standardOutput: Output = {
  line: (text) => void process.stdout.write(`${text}\n`),
  progress: (text) => void process.stderr.write(`${text}\n`),
};

/** Run as a program (bin/jawad.mjs imports this file after registering tsx). */
export async function runFromProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), process.env, standardOutput);
  // Sockets and the MCP transport would keep a finished server alive.
  if (['bridge', 'mcp'].includes(process.argv[2] ?? '')) process.exit();
}
