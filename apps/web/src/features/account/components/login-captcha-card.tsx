import { useState } from 'react';
import { Card, Radio, Skeleton, Space } from 'antd';
import { loginCaptchaModes, type LoginCaptchaMode } from '@atrium/shared/contract/accounts-rules';
import { useLoginCaptchaMode } from '../api/get-login-captcha';
import { useSaveLoginCaptcha } from '../api/save-login-captcha';
import { useAccountT } from '../i18n';

/** When logins need the image captcha (setting `loginCaptcha`, rule `system/setting`). */
export function LoginCaptchaCard() {
  const t = useAccountT();
  const query = useLoginCaptchaMode();
  const save = useSaveLoginCaptcha();
  // The choice shows at once (a controlled radio would otherwise flick back until the mutation
  // reports pending), and falls back to the stored mode when the save fails.
  const [picked, setPicked] = useState<LoginCaptchaMode | null>(null);
  return (
    <Card title={t('account.loginCaptchaCard')}>
      {query.data ? (
        <Radio.Group
          value={picked ?? query.data.mode}
          onChange={(e) => {
            const mode = loginCaptchaModes.find((m) => m === e.target.value);
            if (!mode) return;
            setPicked(mode);
            save.mutate(mode, { onError: () => setPicked(null) });
          }}
        >
          <Space orientation="vertical">
            <Radio value="auto">{t('account.loginCaptchaAuto')}</Radio>
            <Radio value="always">{t('account.loginCaptchaAlways')}</Radio>
            <Radio value="never">{t('account.loginCaptchaNever')}</Radio>
          </Space>
        </Radio.Group>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      )}
    </Card>
  );
}
