/**
 * Realistic tasks on a real WordPress (test/support/real-apps/wordpress.ts), each played by a
 * scripted model that finds its targets by role and name in the snapshot text it is given, as a
 * real model does, and each checked in WordPress's database — never in the DOM.
 */
import { findRef, sawWaitMet, scriptedAgent, type AgentContext, type ScriptStep } from '../scripted-model';
import { expectThat, sqlText, type AppTask } from './app-task';
import { WP_ADMIN, type WordPress } from './wordpress';

const logIn: ScriptStep[] = [
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Username or Email Address'), text: WP_ADMIN.user } }),
  (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Password'), text: WP_ADMIN.password } }),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Log In') } }),
];

const POST_TITLE = 'Harbour opening hours';
const POST_TEXT = 'From Monday the harbour office opens at eight and closes at six.';
const TAGLINE = 'News from the harbour office';

/** The element of this role and name that nothing covers, as a model reads `[covered by …]` on the others. */
function uncovered(ctx: AgentContext, role: string, name: string): string {
  const open = (ctx.snapshotText ?? '').split('\n').filter((line) => !line.includes('[covered by ')).join('\n');
  return findRef(open, role, name) ?? ctx.findRef(role, `${name} (not covered)`);
}

export const WP_TASKS: AppTask<WordPress>[] = [
  {
    name: 'write and publish a post in the block editor',
    prompt: `Log in as ${WP_ADMIN.user} and publish a post titled “${POST_TITLE}” that says: ${POST_TEXT}`,
    start: '/wp-login.php',
    model: (wp) =>
      scriptedAgent([
        ...logIn,
        { tool: 'open_url', args: { url: `${wp.url}/wp-admin/post-new.php` } },
        { tool: 'snapshot' },
        // The editor greets a new user with a guide laid over it.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Close dialog') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Add title'), text: POST_TITLE } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Add default block') } }),
        { tool: 'snapshot' },
        // The new paragraph is an editable ARIA document named for its empty state.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('document', /empty block/i), text: POST_TEXT } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Publish') } }),
        { tool: 'snapshot' },
        // The editor asks once more before publishing: the button in its pre-publish panel.
        (ctx) => ({ tool: 'click', args: { ref: uncovered(ctx, 'button', 'Publish') } }),
        // Reads on once the editor says so: "<the title, a link> is now live."
        { tool: 'snapshot', args: { waitForText: `${POST_TITLE} is now live` } },
      ], { final: (ctx) => (sawWaitMet(ctx, `${POST_TITLE} is now live`) ? `Published “${POST_TITLE}”.` : 'The editor did not confirm the post went live.') }),
    async verify(wp, _finalUrl, answer) {
      expectThat(answer === `Published “${POST_TITLE}”.`, `the answer was ${JSON.stringify(answer)}`);
      const rows = wp.query(`SELECT post_status, post_content FROM wp_posts WHERE post_type = 'post' AND post_title = ${sqlText(POST_TITLE)}`);
      expectThat(rows.length === 1, `${rows.length} posts are titled “${POST_TITLE}”`);
      const [post] = rows;
      expectThat(post?.post_status === 'publish', `the post is ${post?.post_status}, not published`);
      expectThat(Boolean(post?.post_content?.includes(`<p>${POST_TEXT}</p>`)), `the post says ${JSON.stringify(post?.post_content)}`);
    },
  },
  {
    name: 'change the tagline in the settings',
    prompt: `Log in and change the site's tagline to “${TAGLINE}”.`,
    start: '/wp-login.php',
    model: () =>
      scriptedAgent([
        ...logIn,
        { tool: 'snapshot' },
        // The admin menu: Settings opens its General screen.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Settings') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Tagline'), text: TAGLINE } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save Changes') } }),
        { tool: 'snapshot' },
      ], { final: `The tagline is now “${TAGLINE}”.` }),
    async verify(wp) {
      const [option] = wp.query("SELECT option_value FROM wp_options WHERE option_name = 'blogdescription'");
      expectThat(option?.option_value === TAGLINE, `the tagline is ${JSON.stringify(option?.option_value)}`);
    },
  },
  {
    name: 'trash a post with a bulk action',
    prompt: 'Log in and move the “Hello world!” post to the trash.',
    start: '/wp-login.php?redirect_to=%2Fwp-admin%2Fedit.php',
    model: () =>
      scriptedAgent([
        ...logIn,
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRef('checkbox', 'Select Hello world!') } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', 'Select bulk action'), option: 'Move to Trash' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Apply') } }),
        { tool: 'snapshot' },
      ], { final: 'Moved “Hello world!” to the trash.' }),
    async verify(wp) {
      const [post] = wp.query("SELECT post_status FROM wp_posts WHERE post_title = 'Hello world!'");
      expectThat(post?.post_status === 'trash', `“Hello world!” is ${post?.post_status}`);
      const [other] = wp.query(`SELECT post_status FROM wp_posts WHERE post_type = 'post' AND post_title = ${sqlText(POST_TITLE)}`);
      expectThat(other?.post_status !== 'trash', 'the other post went to the trash too');
    },
  },
  {
    name: 'trash a page from the actions its row shows under the pointer',
    prompt: 'Log in and move the “Sample Page” page to the trash.',
    start: '/wp-login.php?redirect_to=%2Fwp-admin%2Fedit.php%3Fpost_type%3Dpage',
    model: () =>
      scriptedAgent([
        ...logIn,
        { tool: 'snapshot' },
        // A row's Edit and Trash sit off the page until the pointer is over the row (CSS :hover).
        (ctx) => ({ tool: 'hover', args: { ref: ctx.findRef('link', /Sample Page/) } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', /^Move “Sample Page” to the Trash$/) } }),
        { tool: 'snapshot' },
      ], { final: 'Moved “Sample Page” to the trash.' }),
    async verify(wp) {
      const pages = wp.query("SELECT post_title, post_status FROM wp_posts WHERE post_type = 'page' AND post_title IN ('Sample Page', 'Privacy Policy')");
      const status = (title: string) => pages.find((page) => page.post_title === title)?.post_status;
      expectThat(status('Sample Page') === 'trash', `“Sample Page” is ${status('Sample Page')}`);
      expectThat(status('Privacy Policy') !== 'trash', 'the Privacy Policy page went to the trash too');
    },
  },
];
