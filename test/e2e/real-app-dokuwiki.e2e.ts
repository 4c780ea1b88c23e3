/**
 * Real tasks on a real DokuWiki (Debian's package, installed by this test when missing, run on
 * PHP's built-in server): the agent with a scripted model that reads each snapshot for its
 * targets, checked in the wiki's own files.
 */
import { startDokuWiki } from '../support/real-apps/dokuwiki';
import { DOKU_TASKS } from '../support/real-apps/doku-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('DokuWiki tasks', startDokuWiki, DOKU_TASKS);
