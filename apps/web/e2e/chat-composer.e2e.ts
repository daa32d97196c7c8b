import { mkdirSync } from 'node:fs';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test } from './fixtures';
import { adminAuth, addModel, call } from './api-call';

// With SCREENSHOTS=1 each screen is photographed (in /work/screens/h-budgets).
const SCREENS = '/work/screens/h-budgets';
const SHOTS = process.env.SCREENSHOTS === '1';
const runTag = Date.now().toString(36);

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['eyes-model'] });
});

test.afterAll(async () => {
  await fake.close();
});

/**
 * Issue 28, point 9: the composer's image button follows the room's model. An admin allows images
 * (the model sees them) in another tab; the member's open page shows the button on coming back
 * to it, without a reload.
 */
test('the image button appears once the room’s model sees images, without a reload', async ({
  page,
  atrium,
}) => {
  mkdirSync(SCREENS, { recursive: true });
  const admin = await adminAuth(atrium);
  const title = `Eyes ${runTag}`;
  const model = await addModel(
    atrium.url,
    admin,
    { name: `Eyes AI ${runTag}`, baseUrl: fake.url, apiKey: 'sk-e2e-eyes-000000000000' },
    { name: 'eyes-model', title },
  );
  const room = await call<{ id: number }>(
    atrium.url,
    'admin/api/aigc/chat_room/save',
    { id: 0, title: `Eyes room ${runTag}`, modelId: model.id, sort: 99 },
    admin,
  );
  const vision = (on: boolean) =>
    call(
      atrium.url,
      'admin/api/aigc/model/save',
      { id: model.id, providerId: model.providerId, name: 'eyes-model', title, vision: on },
      admin,
    );
  const member = { username: `eyes_${runTag}`, password: 'eyes-Member-pass-42' };
  await call(atrium.url, 'admin/api/members/create', member, admin);
  const { token } = await call<{ token: string }>(atrium.url, 'api/auth/login', member);
  await page.context().addCookies([{ name: 'api-token', value: token, url: atrium.url }]);

  try {
    for (const { width, height, lang, attach, box } of [
      { width: 1280, height: 800, lang: 'zh-CN', attach: '添加图片', box: '输入消息' },
      { width: 375, height: 812, lang: 'en', attach: 'Add images', box: 'Type a message' },
    ]) {
      await vision(false);
      await page.setViewportSize({ width, height });
      await page.goto(`${atrium.url}#/${room.id}`);
      await page.evaluate((l) => localStorage.setItem('atrium.lang', l), lang);
      await page.reload();
      await expect(page.getByLabel(box)).toBeVisible();
      await expect(page.getByRole('button', { name: attach })).toHaveCount(0);
      // The admin allows images elsewhere; the member comes back to this tab.
      await vision(true);
      await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      await expect(page.getByRole('button', { name: attach })).toBeVisible();
      if (SHOTS)
        await page.screenshot({
          animations: 'disabled',
          path: `${SCREENS}/composer-images-${width}-${lang}.png`,
        });
    }
    await page.evaluate(() => localStorage.removeItem('atrium.lang'));
  } finally {
    await call(
      atrium.url,
      'admin/api/aigc/chat_room/save',
      { id: room.id, title: `Eyes room ${runTag}`, modelId: model.id, enabled: false },
      admin,
    );
  }
});
