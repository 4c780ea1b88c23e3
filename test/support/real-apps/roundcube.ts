/**
 * Roundcube webmail (Debian's package, the Elastic skin) on PHP's built-in server over a private
 * Dovecot IMAP server, a fresh mailbox per start: a message list whose rows are opened by a
 * script, a preview pane in a frame, toolbar menus that pop up away from their button. The
 * mailbox is plain Maildir files, and they answer what happened: a message's flags are in its
 * file name (S seen, F flagged), a folder is a directory.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { freePort } from '../ports';
import { startPhpServer } from './php-server';
import { startServerProcess } from './server-process';

const ROUNDCUBE = '/usr/share/roundcube';
export const MAIL_USER = { user: 'ada@example.com', password: 'Jawad-mail-pass-3' };

/** A message as its Maildir file tells it. */
export interface StoredMessage {
  from: string;
  to: string;
  subject: string;
  body: string;
  /** Maildir flags: S seen, F flagged, R replied, T trashed, D draft. */
  flags: string;
}

export interface Roundcube extends RealApp {
  /** The messages of a folder ('INBOX', 'Trash', 'Drafts', 'Sent' or one made since). */
  messages(folder: string): StoredMessage[];
  /** The folders the mailbox has besides the inbox. */
  folders(): string[];
}

/** The mailbox the tasks start from, oldest first. */
export const INBOX: Array<{ from: string; subject: string; body: string }> = [
  { from: 'Shop Deals <deals@shop.example>', subject: 'Your weekly deals', body: 'Save 20 % on garden chairs this week only.' },
  { from: 'Bob Stone <bob@example.com>', subject: 'Lunch on Friday?', body: 'Shall we try the new noodle bar on Friday at noon?' },
  { from: 'Carol Diaz <carol@example.com>', subject: 'Invoice 2026-117', body: 'Please find the figures for invoice 2026-117 below: 3 hours of consulting, 240 EUR.' },
  { from: 'Alice Martin <alice@example.com>', subject: 'Quarterly report meeting', body: 'Hi Ada,\n\nthe quarterly report meeting is in room Orion at 3 pm on Thursday. Please bring the sales figures.\n\nAlice' },
];

const dovecotConf = (dir: string, port: number) => `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_login_user = dovenull
default_internal_user = dovecot
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=${dir}/mail/%u
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Projects {
    auto = subscribe
  }
}
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
`;

const roundcubeConf = (dir: string, imapPort: number) => `<?php
$config = [];
$config['db_dsnw'] = 'sqlite:///${dir}/roundcube.db?mode=0600';
$config['imap_host'] = '127.0.0.1:${imapPort}';
// No mail leaves: sending is not among the tasks, and nothing listens here.
$config['smtp_host'] = '127.0.0.1:9';
$config['product_name'] = 'Team Mail';
$config['des_key'] = 'jawad-test-des-key-24chr';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['log_dir'] = '${dir}/logs/';
$config['temp_dir'] = '${dir}/temp/';
$config['enable_spellcheck'] = false;
$config['enable_installer'] = false;
$config['language'] = 'en_US';
`;

/** A message in RFC 5322 form, as a mail server would have delivered it. */
function messageFile(message: (typeof INBOX)[number], index: number): string {
  const date = new Date(Date.UTC(2026, 10, 20 + index, 9, 30)).toUTCString().replace('GMT', '+0000');
  return [
    `From: ${message.from}`,
    `To: Ada Lovelace <${MAIL_USER.user}>`,
    `Subject: ${message.subject}`,
    `Date: ${date}`,
    `Message-ID: <seed-${index}@example.com>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    message.body,
    '',
  ].join('\r\n');
}

/** The folder's directory: Maildir++ keeps the inbox at the root and others as `.Name`. */
const folderDir = (maildir: string, folder: string) => (folder === 'INBOX' ? maildir : join(maildir, `.${folder.replace(/\//g, '.')}`));

function readMessages(dir: string): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (const sub of ['new', 'cur']) {
    const path = join(dir, sub);
    if (!existsSync(path)) continue;
    for (const name of readdirSync(path)) {
      const text = readFileSync(join(path, name), 'utf8');
      const [head = '', ...rest] = text.split(/\r?\n\r?\n/);
      const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      messages.push({ from: header('From'), to: header('To'), subject: header('Subject'), body: rest.join('\n\n'), flags: name.split(':2,')[1] ?? '' });
    }
  }
  return messages;
}

function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((ready, fail) => {
    const attempt = () => {
      if (child.exitCode !== null) return fail(new Error(`dovecot exited with ${child.exitCode}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), ready()));
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) fail(new Error(`dovecot did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * Has Dovecot index the seeded inbox, as a server that delivered the mail would have. A mailbox
 * never indexed answers two first sessions at once wrongly: while one builds the index, the other's
 * STATUS reads it empty — Roundcube's message list (one request) then said "Mailbox is empty" while
 * its unread count (another) said 4.
 */
function indexMailbox(dir: string): void {
  const status = execFileSync('doveadm', ['-c', join(dir, 'dovecot.conf'), 'mailbox', 'status', '-u', MAIL_USER.user, 'messages', 'INBOX'], { encoding: 'utf8' });
  if (status.trim() !== `INBOX messages=${INBOX.length}`) throw new Error(`Dovecot indexed the seeded inbox as: ${status.trim()}`);
}

async function startDovecot(dir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  for (const sub of ['run', 'state']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'dovecot.conf'), dovecotConf(dir, port));
  writeFileSync(join(dir, 'users'), `${MAIL_USER.user}:{PLAIN}${MAIL_USER.password}\n`);
  // Foreground (-F), its own process group: stopping it stops its login and imap processes. Ready
  // once it listens and has indexed the seeded inbox.
  const ready = async (child: ChildProcess) => {
    await waitForPort(port, child, 30_000);
    indexMailbox(dir);
  };
  const server = await startServerProcess('dovecot', ['-F', '-c', join(dir, 'dovecot.conf')], {}, ready);
  return { port, stop: server.stop };
}

/** The user's Maildir with the seed messages, owned by the user Dovecot reads mail as. */
function seedMailbox(dir: string): string {
  const maildir = join(dir, 'mail', MAIL_USER.user, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  INBOX.forEach((message, index) => writeFileSync(join(maildir, 'cur', `${1_790_000_000 + index}.seed${index}.jawad:2,`), messageFile(message, index)));
  const [, uid, gid] = (/^dovecot:[^:]*:(\d+):(\d+):/m.exec(readFileSync('/etc/passwd', 'utf8')) ?? []).map(Number);
  if (uid === undefined || gid === undefined) throw new Error('Dovecot\'s package made no dovecot user');
  const own = (path: string) => {
    chownSync(path, uid, gid);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) own(join(path, entry.name));
      else chownSync(join(path, entry.name), uid, gid);
    }
  };
  own(join(dir, 'mail'));
  return maildir;
}

export async function startRoundcube(): Promise<Roundcube> {
  ensurePackages(['roundcube-core', 'roundcube-sqlite3', 'php-sqlite3', 'dovecot-imapd', 'php-cli'], [
    // Roundcube's database is the tests' own SQLite file, made by Roundcube itself on first use.
    'roundcube-core roundcube/dbconfig-install boolean false',
    'roundcube-core roundcube/database-type select sqlite3',
    '',
  ].join('\n'));
  const dir = mkdtempSync(join(tmpdir(), 'jawad-roundcube-'));
  // Dovecot's processes (other users) walk into it.
  chmodSync(dir, 0o755);
  const maildir = seedMailbox(dir);
  const dovecot = await startDovecot(dir);
  const conf = join(dir, 'conf');
  mkdirSync(conf);
  for (const name of ['defaults.inc.php', 'mimetypes.php']) cpSync(join('/etc/roundcube', name), join(conf, name));
  writeFileSync(join(conf, 'config.inc.php'), roundcubeConf(dir, dovecot.port));
  for (const sub of ['logs', 'temp']) mkdirSync(join(dir, sub));
  // No router rules: php -S serves files as they are and runs PHP files, `/` by its index.php.
  writeFileSync(join(dir, 'router.php'), '<?php return false;\n');
  const server = await startPhpServer(ROUNDCUBE, join(dir, 'router.php'), '/', { ROUNDCUBE_CONFIG_DIR: conf, PHP_CLI_SERVER_WORKERS: '4' }).catch(async (error: unknown) => {
    await dovecot.stop();
    throw error;
  });
  const home = await (await fetch(`${server.url}/`)).text();
  if (!home.includes('Team Mail')) {
    await server.stop();
    await dovecot.stop();
    throw new Error('Roundcube did not take the test configuration');
  }
  return {
    url: server.url,
    messages: (folder) => readMessages(folderDir(maildir, folder)),
    folders: () => readdirSync(maildir).filter((name) => name.startsWith('.') && existsSync(join(maildir, name, 'cur'))).map((name) => name.slice(1)),
    async stop() {
      await server.stop();
      await dovecot.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
