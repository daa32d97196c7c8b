import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { captchaImageId } from '../../server/src/features/captcha/captcha.image';

const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));

export interface AtriumServer {
  /** Member app root, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** Admin app root, e.g. http://127.0.0.1:41234/admin/ */
  adminUrl: string;
  adminPassword: string;
  dataDir: string;
  /** Creates an admin through the server's own CLI; with rules, a role holding them. */
  createAdmin(username: string, password: string, rules?: string[]): Promise<void>;
  /** The answer of a captcha image (its data URL) this server drew, from its log. */
  captchaAnswer(image: string): Promise<string>;
  /** What the server has logged so far (warnings and errors: it runs at LOG_LEVEL=warn). */
  log: ServerLog;
}

/**
 * The one reader of the server's output, line by line from its first byte (so no line is read
 * from its middle): lines go to `onLine` listeners (the captcha answers), and the last 500 of what
 * the server says are kept so that a failed test can show what it said during it.
 */
export class ServerLog {
  private readonly lines: string[] = [];
  private readonly listeners: ((line: string) => void)[] = [];
  /** How many lines were ever kept: a test's own lines are those past its start's count. */
  private count = 0;

  constructor(child: ChildProcess) {
    child.stdout?.on('data', this.reader());
    child.stderr?.on('data', this.reader());
  }

  /** Splits one stream of the server's into lines (each stream keeps its own partial line). */
  private reader(): (d: Buffer) => void {
    let partial = '';
    return (d) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        for (const listener of this.listeners) listener(line);
        // The captcha answers are the tests' own channel, not something the server says.
        if (!line || line.includes('"captchaAnswer"')) continue;
        this.lines.push(line);
        this.count++;
        if (this.lines.length > 500) this.lines.shift();
      }
    };
  }

  /** Hears every line from now on. */
  onLine(listener: (line: string) => void): void {
    this.listeners.push(listener);
  }

  /** A mark to read from later (`since`). */
  mark(): number {
    return this.count;
  }

  /** The lines logged since `mark` (at most the last 500). */
  since(mark: number): string[] {
    return this.lines.slice(Math.max(0, this.lines.length - (this.count - mark)));
  }
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverMain, ...args], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} failed:\n${out}`)),
    );
  });
}

/**
 * Captcha answers by image, read from the log lines the server writes with
 * ATRIUM_LOG_CAPTCHA_ANSWERS: the picture itself is made so that no program can read it.
 */
function captchaAnswers(log: ServerLog): (image: string) => Promise<string> {
  const answers = new Map<string, string>();
  log.onLine((line) => {
    if (!line.includes('"captchaAnswer"')) return;
    const entry = JSON.parse(line) as { captchaAnswer: string; captchaImage: string };
    answers.set(entry.captchaImage, entry.captchaAnswer);
  });
  return async (image) => {
    const id = captchaImageId(image);
    // The image can reach the page a moment before its log line reaches us.
    await expect.poll(() => answers.has(id), { message: 'a logged captcha answer' }).toBe(true);
    return answers.get(id) ?? '';
  };
}

function startServer(env: NodeJS.ProcessEnv): Promise<{
  child: ChildProcess;
  port: number;
  captchaAnswer: (image: string) => Promise<string>;
  log: ServerLog;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverMain, 'start'], { env });
    const log = new ServerLog(child);
    const captchaAnswer = captchaAnswers(log);
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Atrium did not start in time:\n${out}`));
    }, 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Atrium listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), captchaAnswer, log });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Atrium exited with ${code}:\n${out}`));
    });
  });
}

/** One real Atrium server per worker, on a free port with a fresh temporary data folder. */
export const test = base.extend<{ serverLog: void }, { atrium: AtriumServer }>({
  // A failed test shows what the server logged while it ran (a load-sensitive failure on CI is
  // otherwise read from the page alone): as a text attachment, printed with the failure.
  serverLog: [
    async ({ atrium }, use, testInfo) => {
      const mark = atrium.log.mark();
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const lines = atrium.log.since(mark);
      if (lines.length > 0)
        await testInfo.attach('server log', { body: lines.join('\n'), contentType: 'text/plain' });
    },
    { auto: true },
  ],
  atrium: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'atrium-e2e-'));
      const adminPassword = 'e2e-Admin-pass-42';
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        ATRIUM_DATA_DIR: dataDir,
        ATRIUM_ADMIN_PASSWORD: adminPassword,
        LOG_LEVEL: 'warn',
        ATRIUM_LOG_CAPTCHA_ANSWERS: 'true',
        // Every answer the browser gets is parsed against its declaration (DESIGN 3).
        ATRIUM_CHECK_ANSWERS: 'true',
        // The wait between two codes to one phone: a few seconds, not the real minute.
        ATRIUM_VERIFY_RESEND_SECONDS: '4',
        // Passwords hashed at the test cost (1 MiB, 1 pass): every spec signs in, often.
        ATRIUM_PASSWORD_COST: 'test',
      };
      const { child, port, captchaAnswer, log } = await startServer(env);
      const url = `http://127.0.0.1:${port}/`;
      await use({
        url,
        adminUrl: `${url}admin/`,
        adminPassword,
        dataDir,
        async createAdmin(username, password, rules) {
          const args = ['create-admin', '--username', username, '--password', password];
          if (rules) args.push('--rules', rules.join(','));
          await runCli(args, env);
        },
        captchaAnswer,
        log,
      });
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect };
