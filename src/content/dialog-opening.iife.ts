/**
 * Registered to run in the page's own world as each page of a site Jawad acts on begins to load
 * (src/background/tools/opened-pages.ts): the dialog shim, answering the boxes a page an action
 * opened shows as it loads, with the action's answers (src/content/dialog-shim.ts). Elsewhere it
 * finds no answers left and only installs the shim, unarmed.
 */
import { DIALOG_AFTERMATH_MS, DIALOG_CHANNEL, MAX_DIALOGS_LISTED } from '../protocol/dialog-channel';
import { installDialogShim } from './dialog-shim';

installDialogShim(DIALOG_CHANNEL, { keepAtMost: MAX_DIALOGS_LISTED, answerForMs: DIALOG_AFTERMATH_MS });
