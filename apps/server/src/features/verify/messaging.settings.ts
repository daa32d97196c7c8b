import {
  defaultSmsTemplate,
  emailTransports,
  smsTransports,
  smtpSecurityModes,
  type MessagingForm,
  type MessagingView,
} from '@atrium/shared/contract/accounts';
import { z } from 'zod';
import type { SecretBox } from '../../security/secret-box';
import type { SettingsRepository } from '../settings/settings.repository';

/** Settings key of the message transports (DESIGN 7). */
export const MESSAGING_SETTING = 'messaging';

/** The transports with the SMTP password readable, as the senders need them. */
export interface MessagingConfig extends Omit<MessagingForm, 'smtp'> {
  smtp: Omit<MessagingForm['smtp'], 'password'> & { password: string };
}

/** The stored form: everything as edited, the SMTP password sealed with the secret box. */
const storedSchema = z.object({
  emailTransport: z.enum(emailTransports).catch('log'),
  smsTransport: z.enum(smsTransports).catch('log'),
  smtp: z
    .object({
      host: z.string().catch(''),
      port: z.number().int().min(1).max(65535).catch(587),
      security: z.enum(smtpSecurityModes).catch('starttls'),
      user: z.string().catch(''),
      passwordSealed: z.string().catch(''),
      from: z.string().catch(''),
    })
    .catch({ host: '', port: 587, security: 'starttls', user: '', passwordSealed: '', from: '' }),
  sms: z
    .object({ url: z.string().catch(''), template: z.string().catch(defaultSmsTemplate) })
    .catch({ url: '', template: defaultSmsTemplate }),
});
type Stored = z.infer<typeof storedSchema>;

export class MessagingSettings {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  private async stored(): Promise<Stored> {
    return storedSchema.parse((await this.settings.get(MESSAGING_SETTING)) ?? {});
  }

  /** The transports to send with; `log` for both until an admin configures others. */
  async load(): Promise<MessagingConfig> {
    const { smtp, ...rest } = await this.stored();
    const { passwordSealed, ...server } = smtp;
    return {
      ...rest,
      smtp: { ...server, password: passwordSealed ? (this.box.open(passwordSealed) ?? '') : '' },
    };
  }

  async view(): Promise<MessagingView> {
    const { smtp, ...rest } = await this.stored();
    const { passwordSealed, ...server } = smtp;
    return { ...rest, smtp: { ...server, hasPassword: passwordSealed !== '' } };
  }

  /** Saves the form; an empty password keeps the stored one, an empty user drops it. */
  async save(form: MessagingForm): Promise<void> {
    const current = await this.stored();
    const { password, ...smtp } = form.smtp;
    let passwordSealed = current.smtp.passwordSealed;
    if (smtp.user === '') passwordSealed = '';
    else if (password) passwordSealed = this.box.seal(password);
    const value: Stored = { ...form, smtp: { ...smtp, passwordSealed } };
    await this.settings.set(MESSAGING_SETTING, value, this.now());
  }
}
