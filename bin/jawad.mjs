#!/usr/bin/env node
// The `jawad` command of a checkout: the CLI is TypeScript (cli/), run through tsx, a dev
// dependency of this repository. `npx jawad --help` from inside the checkout runs this file.
import { register } from 'tsx/esm/api';

register();
const { runFromProcess } = await import('../cli/main.ts');
await runFromProcess();
