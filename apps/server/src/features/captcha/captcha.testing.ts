import type { CaptchaService } from './captcha.service';

/**
 * The picture is made so that no program reads it, tests included; so tests look the answer up
 * the way a person reads it off the screen: by the image they were shown. Wrapping the service
 * notes each drawing's text beside its image; the checks themselves stay untouched.
 */
const books = new WeakMap<CaptchaService, Map<string, string>>();

function bookOf(service: CaptchaService): Map<string, string> {
  let book = books.get(service);
  if (!book) {
    const answers = new Map<string, string>();
    const issue = service.issue.bind(service);
    service.issue = async (...args) => {
      const drawn = await issue(...args);
      answers.set(drawn.image, drawn.text);
      return drawn;
    };
    books.set(service, answers);
    book = answers;
  }
  return book;
}

/**
 * Runs `load`, which asks `service` for a captcha image and returns it, and answers that image.
 */
export async function answerCaptcha(
  service: CaptchaService,
  load: () => Promise<string>,
): Promise<string> {
  const book = bookOf(service);
  const image = await load();
  const answer = book.get(image);
  if (answer === undefined) throw new Error('not a captcha image this server drew');
  book.delete(image);
  return answer;
}
