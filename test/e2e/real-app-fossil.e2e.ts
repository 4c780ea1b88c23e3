/**
 * Real tasks on a real Fossil (Debian's package, installed by this test when missing, serving a
 * fresh repository with its own web interface): the agent with a scripted model that reads each
 * snapshot for its targets, checked in the repository.
 */
import { startFossil } from '../support/real-apps/fossil';
import { FOSSIL_TASKS } from '../support/real-apps/fossil-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('Fossil tasks', startFossil, FOSSIL_TASKS);
