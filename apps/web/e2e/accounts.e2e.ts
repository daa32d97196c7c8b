import type { Browser, Page } from '@playwright/test';
import { adminAuth, call } from './api-call';
import { test, expect, type AtriumServer } from './fixtures';
import { shownAlert } from './files-support';
import { snap } from './snap';

/** The pages in English, so the SPEC's English labels ("Click to get", ...) are what we click. */
async function englishPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('atrium.lang', 'en'));
  return context.newPage();
}

/** A valid 1x1 PNG, so the server's content check accepts it. */
const onePixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const captchaImage = (page: Page) => page.getByRole('button', { name: 'Click to refresh' });

/** Waits for a drawn captcha (other than `previous`) and answers the image on the page. */
async function answerCaptcha(page: Page, atrium: AtriumServer, previous?: string): Promise<string> {
  const image = captchaImage(page);
  await expect(image).toHaveAttribute('data-loaded', 'true');
  if (previous) await expect(image).not.toHaveAttribute('src', previous);
  const src = (await image.getAttribute('src')) ?? '';
  await page.getByLabel('Captcha').fill(await atrium.captchaAnswer(src));
  return src;
}

async function adminSignIn(page: Page, atrium: AtriumServer): Promise<void> {
  await page.goto(`${atrium.adminUrl}#/login`);
  await page.getByLabel('Username', { exact: true }).fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(atrium.adminPassword);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page).toHaveURL(/#\/dashboard$/);
}

/** Reads the newest code from the admin outbox page: the default `log` transport keeps it there. */
async function codeFromOutbox(admin: Page, atrium: AtriumServer, masked: string): Promise<string> {
  await admin.goto(`${atrium.adminUrl}#/system/outbox`);
  // A fresh load: the page may already show an older list.
  await admin.reload();
  const row = admin.getByRole('row').filter({ hasText: masked }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('Logged');
  const text = (await row.textContent()) ?? '';
  const code = /code is (\d{6})/.exec(text)?.[1];
  expect(code, `a code in "${text}"`).toBeDefined();
  return code ?? '';
}

/** Signs in with `login` (username, e-mail or phone); the header then greets `name`. */
async function memberSignIn(
  page: Page,
  atrium: AtriumServer,
  login: string,
  password: string,
  name = login,
) {
  await page.goto(`${atrium.url}#/login`);
  await page.getByLabel('Username', { exact: true }).fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page.getByRole('banner').getByRole('button', { name })).toBeVisible();
}

/**
 * Opens the header's user menu and picks `item`. The menu is loaded on demand: a click on its
 * placeholder (the same name) opens it once it has arrived, so one click is all it takes.
 */
async function userMenu(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test.describe('member accounts', () => {
  test('register with a code from the outbox, sign out, sign in, change the password: the old session is gone', async ({
    browser,
    atrium,
  }) => {
    const page = await englishPage(browser);
    const admin = await englishPage(browser);
    await adminSignIn(admin, atrium);

    await call(await adminAuth(atrium), 'members/create', {
      username: 'taken_song',
      password: 'taken pass 1',
    });
    // The header's user menu is held back until its placeholder has been clicked (below).
    let releaseMenu = () => {};
    const menuHeld = new Promise<void>((resolve) => (releaseMenu = resolve));
    await page.route('**/assets/user-menu-*.js', async (route) => {
      await menuHeld;
      await route.continue();
    });
    // A members-only page sends the visitor to sign in; they choose to sign up instead.
    await page.goto(`${atrium.url}#/profile`);
    await expect(page).toHaveURL(/#\/login\?redirect=%2Fprofile$/);
    await page.getByRole('link', { name: 'Create one' }).click();
    await expect(page).toHaveURL(/#\/register\?redirect=%2Fprofile$/);
    await expect(page.getByRole('heading', { name: 'Join Atrium' })).toBeVisible();

    // A taken name is said beside the field when the code is asked for, and no code goes out.
    const username = page.getByLabel('Username', { exact: true });
    await username.fill('taken_song');
    await page.getByLabel('E-mail or phone').fill('River.Song@Example.com');
    const first = await answerCaptcha(page, atrium);
    await expect(page.getByText('Needed only to get a code')).toBeVisible();
    const send = page.getByRole('button', { name: 'Click to get' });
    await send.click();
    // Beside the field (the screen readers' polite region keeps the words it last said).
    const taken = page.locator('.ant-form-item-explain').getByText('Username taken_song is taken');
    await expect(taken).toBeVisible();
    await expect(send).toBeEnabled();
    await username.fill('river_song');
    await expect(taken).toHaveCount(0);
    // That request used the captcha up: a new picture, answered once more to get the code.
    await answerCaptcha(page, atrium, first);
    await send.click();
    await expect(page.getByRole('button', { name: /^\d+s$/ })).toBeDisabled();
    await expect(page.getByRole('button', { name: /^(59|60)s$/ })).toBeVisible();

    // A wrong code is refused; the form keeps everything and asks for no captcha again.
    await page.getByLabel('Verification code').fill('000000');
    await page.getByLabel('Password', { exact: true }).fill('first pass 1');
    await page.getByLabel('Confirm password').fill('first pass 1');
    const create = page.getByRole('button', { name: 'Create account' });
    await create.click();
    await expect(
      shownAlert(page).filter({ hasText: /^Verification code is wrong, 4 tries left$/ }),
    ).toBeVisible();
    await expect(page.getByText('Please enter the captcha')).toHaveCount(0);

    const code = await codeFromOutbox(admin, atrium, 'r***@example.com');
    await page.getByLabel('Verification code').fill(code);
    await create.click();

    // Signed in, and on the page the sign-in was for.
    const userButton = page.getByRole('banner').getByRole('button', { name: 'river_song' });
    await expect(userButton).toBeVisible();
    await expect(page).toHaveURL(/#\/profile$/);
    await expect(page.getByText('Please enter the captcha')).toHaveCount(0);

    // Signed out from the home page (the profile page would send a visitor to sign in). The
    // click lands while the menu is still loading: it opens once it has arrived.
    await page.goto(`${atrium.url}#/`);
    await expect(userButton).toHaveAttribute('aria-busy', 'true');
    await userButton.click();
    releaseMenu();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();

    await memberSignIn(page, atrium, 'river.song@example.com', 'first pass 1', 'river_song');
    // A second device signed in before the change.
    const other = await englishPage(browser);
    await memberSignIn(other, atrium, 'river_song', 'first pass 1');

    await userMenu(page, 'river_song', 'Profile');
    await expect(page).toHaveURL(/#\/profile$/);
    await expect(page.getByText('river.song@example.com')).toBeVisible();

    // The avatar: an image uploaded into the member's library, saved at once, shown in the header.
    await page.locator('input[type=file]').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: Buffer.from(onePixelPng, 'base64'),
    });
    await expect(page.getByTestId('profile-avatar').locator('img')).toHaveAttribute(
      'src',
      /\/data\/image\/[0-9a-f]{24}\/me\.png$/,
    );
    await expect(page.getByRole('banner').locator('img[src*="/data/image/"]')).toBeVisible();
    // At 375 px the header keeps the picture a round 28 px avatar beside the other controls.
    await page.setViewportSize({ width: 375, height: 812 });
    const avatar = page
      .getByRole('banner')
      .locator('.ant-avatar')
      .filter({ has: page.locator('img') });
    await expect(avatar).toBeVisible();
    const box = await avatar.boundingBox();
    expect([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)]).toEqual([28, 28]);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    await snap(page, 'accounts-avatar-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Current password').fill('first pass 1');
    await page.getByLabel('New password').fill('second pass 2');
    await page.getByLabel('Confirm password').fill('second pass 2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByText('Password changed; your other devices are signed out'),
    ).toBeVisible();
    await expect(page.getByText('Password changed', { exact: true })).toHaveCount(0);

    // This device stays signed in; the other one's session is gone.
    await page.reload();
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'river_song' }),
    ).toBeVisible();
    await other.goto(`${atrium.url}#/profile`);
    await other.reload();
    await expect(other).toHaveURL(/#\/login\?redirect=%2Fprofile$/);

    await memberSignIn(other, atrium, 'river_song', 'second pass 2');
  });

  test('a forgotten password is reset with a code sent to the phone', async ({
    browser,
    atrium,
  }) => {
    // Waits out the time between two codes to one phone (shortened to 4 s by the fixture).
    test.setTimeout(120_000);
    const page = await englishPage(browser);
    const admin = await englishPage(browser);
    const forgot = await englishPage(browser);
    await adminSignIn(admin, atrium);

    // Another tab is ready to ask for a reset code for the same phone.
    await forgot.goto(`${atrium.url}#/login`);
    await forgot.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(forgot.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await forgot.getByLabel('E-mail or phone').fill('139 1234 5678');
    // A wrong captcha is refused and the image redraws itself.
    const before = await captchaImage(forgot).getAttribute('src');
    await forgot.getByLabel('Captcha').fill('ZZZZ');
    await forgot.getByRole('button', { name: 'Click to get' }).click();
    await expect(forgot.getByText('Wrong captcha')).toBeVisible();
    await expect(forgot.getByRole('button', { name: 'Click to get' })).toBeEnabled();
    const forgotShown = await answerCaptcha(forgot, atrium, before ?? undefined);

    // Sign up with a phone number first.
    await page.goto(`${atrium.url}#/register`);
    await page.getByLabel('Username', { exact: true }).fill('phone_person');
    await page.getByLabel('E-mail or phone').fill('13912345678');
    await answerCaptcha(page, atrium);
    await page.getByRole('button', { name: 'Click to get' }).click();
    await expect(page.getByRole('button', { name: /^\d+s$/ })).toBeDisabled();
    // The sign-up code went to this phone a moment ago: the other tab is told how long to wait.
    await forgot.getByRole('button', { name: 'Click to get' }).click();
    const wait = forgot.getByText(/^Please wait \d+ s before requesting another code$/);
    await expect(wait).toBeVisible();
    const seconds = Number(/(\d+)/.exec((await wait.textContent()) ?? '')?.[1]);
    const allowedAt = Date.now() + seconds * 1000;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(4);
    await expect(forgot.getByRole('button', { name: 'Click to get' })).toBeEnabled();

    await page
      .getByLabel('Verification code')
      .fill(await codeFromOutbox(admin, atrium, '139****5678'));
    await page.getByLabel('Password', { exact: true }).fill('phone pass 1');
    await page.getByLabel('Confirm password').fill('phone pass 1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'phone_person' }),
    ).toBeVisible();
    await userMenu(page, 'phone_person', 'Sign out');

    // Once the wait the server named is over, the reset code goes out.
    await expect
      .poll(() => Date.now() >= allowedAt, { timeout: 10_000, intervals: [250] })
      .toBe(true);
    await answerCaptcha(forgot, atrium, forgotShown);
    await forgot.getByRole('button', { name: 'Click to get' }).click();
    await expect(forgot.getByRole('button', { name: /^\d+s$/ })).toBeDisabled();
    // Two codes went to this phone; the newest row is the reset code.
    await forgot
      .getByLabel('Verification code')
      .fill(await codeFromOutbox(admin, atrium, '139****5678'));
    await forgot.getByLabel('New password').fill('phone pass 2');
    await forgot.getByLabel('Confirm password').fill('phone pass 2');
    await forgot.getByRole('button', { name: 'Reset password' }).click();
    await expect(forgot).toHaveURL(/#\/login$/);
    // One toast says it worked, not the server's message as well.
    await expect(forgot.getByText('Password reset, sign in with the new one')).toBeVisible();
    await expect(forgot.locator('.ant-message-notice', { hasText: /password/i })).toHaveCount(1);
    await memberSignIn(page, atrium, '13912345678', 'phone pass 2', 'phone_person');
  });

  test('with the login captcha set to "always", the admin login asks for it', async ({
    browser,
    atrium,
  }) => {
    const admin = await englishPage(browser);
    await adminSignIn(admin, atrium);
    await admin.goto(`${atrium.adminUrl}#/system/message`);
    await expect(admin.getByRole('heading', { name: 'Message transports' })).toBeVisible();
    await admin.getByRole('radio', { name: 'Always' }).check();
    await expect(admin.getByText('Saved', { exact: true })).toBeVisible();
    try {
      const page = await englishPage(browser);
      await page.goto(`${atrium.adminUrl}#/login`);
      await page.getByLabel('Username', { exact: true }).fill('admin');
      await page.getByLabel('Password', { exact: true }).fill(atrium.adminPassword);
      await page.getByRole('button', { name: /Sign in/ }).click();
      await expect(shownAlert(page)).toContainText('Please enter the captcha');
      await answerCaptcha(page, atrium);
      await page.getByRole('button', { name: /Sign in/ }).click();
      await expect(page).toHaveURL(/#\/dashboard$/);
    } finally {
      await admin.getByRole('radio', { name: /^Automatic/ }).check();
      await expect(admin.getByRole('radio', { name: /^Automatic/ })).toBeChecked();
    }
  });
});
