/**
 * Real tasks on a real phpMyAdmin (Debian's package with MariaDB, installed by this test when
 * missing, run on PHP's built-in server): the agent with a scripted model that reads each snapshot
 * for its targets, checked in the shop database.
 */
import { startPhpMyAdmin } from '../support/real-apps/phpmyadmin';
import { PMA_TASKS } from '../support/real-apps/pma-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('phpMyAdmin tasks', startPhpMyAdmin, PMA_TASKS);
