/**
 * Realistic tasks on a real Roundcube (test/support/real-apps/roundcube.ts), each played by a
 * scripted model that finds its targets by role and name in the snapshot text it is given, as a
 * real model does, and each checked in the mailbox's own files — never in the DOM.
 */
import { type AgentContext, findRef, logInSteps, sawWaitMet, scriptedAgent, type ScriptStep } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { MAIL_USER, type Roundcube } from './roundcube';

const logIn = logInSteps({ user: 'Username', password: 'Password', button: 'Login' }, MAIL_USER);

/**
 * Choosing a message in the list shows it in the preview pane, which Roundcube loads by a timer
 * after the click (60 ms, to tell a click from a double click). Read at once: Jawad waits for what
 * a link the page took over starts a moment later.
 */
const choose = (subject: string): ScriptStep[] => [
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', subject) } }),
  { tool: 'snapshot' },
];

/**
 * A control by its name, or, in a window too narrow for Roundcube to show its labels (the task
 * bar's icons), by where it leads — as a model tells a nameless icon button by its address.
 */
function byNameOrAddress(ctx: AgentContext, role: string, name: string, address: string): string {
  const to = address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // `[button ref=e4 url="…"]` in a line, or `- button [ref=e4] url="…"` on its own.
  const nameless = new RegExp(`\\[${role} ref=(\\w+)[^\\]]* url="${to}"|^\\s*- ${role} \\[ref=(\\w+)\\].* url="${to}"`, 'm').exec(ctx.snapshotText ?? '');
  return nameless?.[1] ?? nameless?.[2] ?? ctx.findRef(role, name);
}

/** The snapshot's text after the line that mentions `mark`: what a popup opened from it lists. */
const after = (ctx: AgentContext, mark: string) => {
  const text = ctx.snapshotText ?? '';
  const at = text.indexOf(mark);
  return at < 0 ? '' : text.slice(text.indexOf('\n', at) + 1);
};

const theOne = (messages: ReturnType<Roundcube['messages']>, subject: string) => {
  const found = messages.filter((message) => message.subject === subject);
  expectThat(found.length === 1, `${found.length} messages are titled “${subject}”`);
  return found[0]!;
};

export const ROUNDCUBE_TASKS: AppTask<Roundcube>[] = [
  {
    name: 'read a message in the preview pane and answer from it',
    prompt: 'Log in to my mail and tell me which room the quarterly report meeting is in.',
    start: '/',
    model: () =>
      scriptedAgent([...logIn, ...choose('Quarterly report meeting')], {
        // The answer is what the model was shown: the preview pane's text, read in its frame.
        final: (ctx) => {
          const room = /in room (\w+)/.exec(ctx.snapshotText ?? '')?.[1];
          return room ? `The quarterly report meeting is in room ${room}.` : 'I could not find the meeting in your mail.';
        },
      }),
    async verify(mail, _finalUrl, answer) {
      expectThat(answer.includes('room Orion'), `the answer was ${JSON.stringify(answer)}`);
      expectThat(theOne(mail.messages('INBOX'), 'Quarterly report meeting').flags.includes('S'), 'the message is not marked as read');
    },
  },
  {
    name: 'flag a message from the Mark menu',
    prompt: 'Log in and flag Bob’s mail about lunch as important.',
    start: '/',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...choose('Lunch on Friday?'),
        // The menu opens in a popup layer at the end of the page, listed under its button.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Mark') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'As flagged') } }),
        { tool: 'snapshot' },
      ], { final: 'Flagged Bob’s mail “Lunch on Friday?”.' }),
    async verify(mail) {
      const inbox = mail.messages('INBOX');
      expectThat(theOne(inbox, 'Lunch on Friday?').flags.includes('F'), 'Bob’s mail is not flagged');
      const others = inbox.filter((message) => message.subject !== 'Lunch on Friday?' && message.flags.includes('F'));
      expectThat(others.length === 0, `also flagged: ${others.map((message) => message.subject).join(', ')}`);
    },
  },
  {
    name: 'delete a message to the trash',
    prompt: 'Log in and delete the weekly deals newsletter.',
    start: '/',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...choose('Your weekly deals'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Delete') } }),
        { tool: 'snapshot' },
      ], { final: 'Moved “Your weekly deals” to the trash.' }),
    async verify(mail) {
      expectThat(!mail.messages('INBOX').some((message) => message.subject === 'Your weekly deals'), 'the newsletter is still in the inbox');
      theOne(mail.messages('Trash'), 'Your weekly deals');
      expectThat(mail.messages('INBOX').length === 3, `the inbox holds ${mail.messages('INBOX').length} messages, not 3`);
    },
  },
  {
    name: 'create a folder in the settings',
    prompt: 'Log in and make a new mail folder called Receipts.',
    start: '/',
    model: () =>
      scriptedAgent([
        ...logIn,
        (ctx) => ({ tool: 'click', args: { ref: byNameOrAddress(ctx, 'button', 'Settings', '/?_task=settings') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Folders') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Create') } }),
        // The folder's form loads in the settings' frame: read at once, it is there (the click waits for it).
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Folder name'), text: 'Receipts' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
        { tool: 'snapshot' },
      ], { final: 'Made the folder Receipts.' }),
    async verify(mail) {
      expectThat(mail.folders().includes('Receipts'), `the folders are ${mail.folders().join(', ')}`);
    },
  },
  {
    name: 'move a message into a folder with the folder picker',
    prompt: 'Log in and move Carol’s invoice into my Projects folder.',
    start: '/',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...choose('Invoice 2026-117'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'More') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Move to...') } }),
        { tool: 'snapshot' },
        // The picker lists the folders in a popup of its own, under the button that opened it (the
        // folder list beside the messages has a Projects too, where a click would open the folder).
        (ctx) => ({ tool: 'click', args: { ref: findRef(after(ctx, '"Move to..."'), 'link', 'Projects') ?? ctx.findRef('link', 'Projects (in the picker)') } }),
        { tool: 'snapshot' },
      ], { final: 'Moved “Invoice 2026-117” into Projects.' }),
    async verify(mail) {
      theOne(mail.messages('Projects'), 'Invoice 2026-117');
      expectThat(!mail.messages('INBOX').some((message) => message.subject === 'Invoice 2026-117'), 'the invoice is still in the inbox');
    },
  },
  {
    name: 'reply and keep the reply as a draft',
    prompt: 'Log in and draft a reply to Alice’s meeting mail saying I will bring the figures; keep it as a draft.',
    start: '/',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...choose('Quarterly report meeting'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Reply') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Message Body'), text: REPLY } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
        // As a careful model does, it reads on once Roundcube confirms the save.
        { tool: 'snapshot', args: { waitForText: 'Message saved to Drafts' } },
      ], { final: (ctx) => (sawWaitMet(ctx, 'Message saved to Drafts') ? 'Saved a draft reply to Alice.' : 'Roundcube did not confirm the draft.') }),
    async verify(mail, _finalUrl, answer) {
      expectThat(answer === 'Saved a draft reply to Alice.', `the answer was ${JSON.stringify(answer)}`);
      const draft = theOne(mail.messages('Drafts'), 'Re: Quarterly report meeting');
      expectThat(draft.to.includes('alice@example.com'), `the draft is to ${draft.to}`);
      expectThat(draft.body.includes(REPLY), `the draft says ${JSON.stringify(draft.body.slice(0, 300))}`);
    },
  },
];

const REPLY = 'Thanks Alice, I will bring the sales figures.';
