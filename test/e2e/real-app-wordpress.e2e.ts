/**
 * Real tasks on a real WordPress (Debian's package with MariaDB, installed by this test when
 * missing, run on PHP's built-in server): the agent with a scripted model that reads each snapshot
 * for its targets, checked in WordPress's database.
 */
import { startWordPress } from '../support/real-apps/wordpress';
import { WP_TASKS } from '../support/real-apps/wp-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('WordPress tasks', startWordPress, WP_TASKS);
