import {
  defaultSmsTemplate,
  emailTransports,
  smsTransports,
  smtpSecurityModes,
  type MessagingForm,
  type MessagingView,
} from '@atrium/shared/contract/accounts';
import { sameSmtpAddress, sameUrlAddress } from '@atrium/shared/contract/secret-address';
import { z } from 'zod';
import { ApiError, message } from '../../http/envelope';
import type { SecretBox } from '../../security/secret-box';
import type { SettingsRepository } from '../../db/settings.repository';

/** Settings key of the message transports (DESIGN 7). */
const MESSAGING_SETTING = 'messaging';

/** The transports with the secrets readable, as the senders need them. */
export interface MessagingConfig extends Omit<MessagingForm, 'smtp' | 'sms'> {
  smtp: Omit<MessagingForm['smtp'], 'password'> & { password: string };
  sms: Omit<MessagingForm['sms'], 'secret'> & { secret: string };
}

export const MessagingMessages = {
  passwordForOtherServer: { ...message('account.smtpPasswordAgain'), field: 'smtp.password' },
  secretForOtherUrl: { ...message('account.smsSecretAgain'), field: 'sms.secret' },
} as const;

/** The stored form: everything as edited, the secrets sealed with the secret box. */
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
    .object({
      url: z.string().catch(''),
      template: z.string().catch(defaultSmsTemplate),
      secretSealed: z.string().catch(''),
    })
    .catch({ url: '', template: defaultSmsTemplate, secretSealed: '' }),
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
    const { smtp, sms, ...rest } = await this.stored();
    const { passwordSealed, ...server } = smtp;
    const { secretSealed, ...hook } = sms;
    const open = (sealed: string) => (sealed ? (this.box.open(sealed) ?? '') : '');
    return {
      ...rest,
      smtp: { ...server, password: open(passwordSealed) },
      sms: { ...hook, secret: open(secretSealed) },
    };
  }

  async view(): Promise<MessagingView> {
    const { smtp, sms, ...rest } = await this.stored();
    const { passwordSealed, ...server } = smtp;
    const { secretSealed, ...hook } = sms;
    return {
      ...rest,
      smtp: { ...server, hasPassword: passwordSealed !== '' },
      sms: { ...hook, hasSecret: secretSealed !== '' },
    };
  }

  /**
   * Saves the form. An empty password keeps the stored one and an empty user drops it; an omitted
   * webhook secret keeps the stored one and an empty one (or an empty URL) drops it. A stored
   * secret is kept only for the address it was given for (DESIGN 7): saving another address
   * without entering it again is refused, naming the field.
   */
  async save(form: MessagingForm): Promise<void> {
    const current = await this.stored();
    const { password, ...smtp } = form.smtp;
    let passwordSealed = current.smtp.passwordSealed;
    if (smtp.user === '') passwordSealed = '';
    else if (password) passwordSealed = this.box.seal(password);
    else if (passwordSealed && !sameSmtpAddress(current.smtp, smtp)) {
      throw new ApiError(MessagingMessages.passwordForOtherServer);
    }
    const { secret, ...sms } = form.sms;
    let secretSealed = current.sms.secretSealed;
    if (sms.url === '' || secret === '') secretSealed = '';
    else if (secret !== undefined) secretSealed = this.box.seal(secret);
    else if (secretSealed && !sameUrlAddress(current.sms.url, sms.url)) {
      throw new ApiError(MessagingMessages.secretForOtherUrl);
    }
    const value: Stored = {
      ...form,
      smtp: { ...smtp, passwordSealed },
      sms: { ...sms, secretSealed },
    };
    await this.settings.set(MESSAGING_SETTING, value, this.now());
  }
}
