import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test } from './fixtures';
import { adminAuth, addModel, call } from './api-call';
import { signInMember } from './seed';
import { SHOTS, snap } from './snap';
import { expectBothLanguages, say } from './words';

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
  const admin = await adminAuth(atrium);
  const title = `Eyes ${runTag}`;
  const model = await addModel(
    admin,
    { name: `Eyes AI ${runTag}`, baseUrl: fake.url, apiKey: 'sk-e2e-eyes-000000000000' },
    { name: 'eyes-model', title },
  );
  const room = await call(admin, 'aigc/chat_room/save', {
    id: 0,
    title: `Eyes room ${runTag}`,
    modelId: model.id,
    sort: 99,
  });
  const vision = (on: boolean) =>
    call(admin, 'aigc/model/save', {
      id: model.id,
      providerId: model.providerId,
      name: 'eyes-model',
      title,
      vision: on,
    });
  const member = { username: `eyes_${runTag}`, password: 'eyes-Member-pass-42' };
  await call(admin, 'members/create', member);
  await signInMember(atrium, member, page.context());

  // In Chinese at 375 px, the English names checked by their keys; with SCREENSHOTS=1, both
  // languages at both widths, photographed.
  expectBothLanguages(['chat.attach', 'chat.placeholderSmall']);
  const views = SHOTS
    ? (['zh-CN', 'en'] as const).flatMap((lang) =>
        [1280, 375].map((width) => ({ lang, width, height: width > 600 ? 800 : 812 })),
      )
    : [{ lang: 'zh-CN' as const, width: 375, height: 812 }];
  try {
    for (const { width, height, lang } of views) {
      const attach = say(lang, 'chat.attach');
      const box = say(lang, 'chat.placeholderSmall');
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
      await snap(page, `composer-images-${width}-${lang}`);
    }
    await page.evaluate(() => localStorage.removeItem('atrium.lang'));
  } finally {
    await call(admin, 'aigc/chat_room/save', {
      id: room.id,
      title: `Eyes room ${runTag}`,
      modelId: model.id,
      enabled: false,
    });
  }
});
