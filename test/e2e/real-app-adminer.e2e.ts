/**
 * Real tasks on a real Adminer (Debian's package, installed by this test when missing, run on PHP's
 * built-in server) over a SQLite database: the agent with a scripted model that reads each snapshot
 * for its targets, checked in the database file.
 */
import { startAdminer } from '../support/real-apps/adminer';
import { ADMINER_TASKS } from '../support/real-apps/adminer-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('Adminer tasks', startAdminer, ADMINER_TASKS);
