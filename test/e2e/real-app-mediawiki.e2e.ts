/**
 * Real tasks on a real MediaWiki (Debian's package, installed by this test when missing, run on
 * PHP's built-in server with SQLite): the agent with a scripted model that reads each snapshot for
 * its targets, checked in the wiki's own state.
 */
import { startMediaWiki } from '../support/real-apps/mediawiki';
import { WIKI_TASKS } from '../support/real-apps/wiki-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('MediaWiki tasks', startMediaWiki, WIKI_TASKS);
