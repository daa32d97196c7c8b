import { expectNoSeriousViolations, seriousViolations } from './axe';
import { expect, test } from './fixtures';

// The scan every accessibility test relies on: if it found nothing, they would all pass.
test('the axe scan finds serious violations in the parts it is given, colour contrast when asked', async ({
  page,
}) => {
  await page.setContent(
    `<html lang="en"><head><title>Scan</title></head><body><main>
      <div id="image"><img src="a.png"></div>
      <div id="button"><button></button><p style="color:#eee;background:#fff">faint</p></div>
    </main></body></html>`,
  );
  const rules = async (...args: Parameters<typeof seriousViolations>) =>
    (await seriousViolations(...args)).map((v) => v.rule).sort();

  expect(await rules(page)).toEqual(['button-name', 'color-contrast', 'image-alt']);
  expect(await rules(page, { include: ['#image'] })).toEqual(['image-alt']);
  expect(await rules(page, { include: ['#button'] })).toEqual(['button-name', 'color-contrast']);
  expect(await rules(page, { include: ['#button'], contrast: false })).toEqual(['button-name']);
  // Each finding names its element.
  const [found] = await seriousViolations(page, { include: ['#image'] });
  expect(found?.targets).toEqual(['img']);
  // A clean part passes the expectation without a soft failure.
  await page.setContent(
    '<html lang="en"><head><title>Clean</title></head><main><p>ok</p></main></html>',
  );
  expect(await expectNoSeriousViolations(page, 'clean page')).toEqual([]);
});
