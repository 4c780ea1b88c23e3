/**
 * Real tasks on a real Roundcube webmail (Debian's package, installed by this test when missing,
 * run on PHP's built-in server over a private Dovecot IMAP server): the agent with a scripted model
 * that reads each snapshot for its targets, checked in the mailbox's own Maildir files.
 */
import { startRoundcube } from '../support/real-apps/roundcube';
import { ROUNDCUBE_TASKS } from '../support/real-apps/roundcube-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('Roundcube tasks', startRoundcube, ROUNDCUBE_TASKS);
