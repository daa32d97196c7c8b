import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import { Limits } from '@atrium/shared/limits';
import { useT } from '@/lib/i18n';

type VerifyCodeState = 'init' | 'sent' | 'retry';

export interface VerifyCodeButtonProps {
  /** Sends the code; resolving starts the countdown, rejecting keeps the state as it was. */
  send: () => Promise<unknown>;
  /** Called with the failure when sending fails. */
  onError?: (error: unknown) => void;
  /** Seconds to count down after a send (SPEC 9: 60). */
  seconds?: number;
  disabled?: boolean;
  size?: ButtonProps['size'];
  block?: boolean;
  style?: ButtonProps['style'];
}

/**
 * The send-verification-code button (SPEC 4.6): "Click to get", then "{n}s" disabled counting
 * down from 60 once a second, then "Get again". While sending it shows a spinner; a failed send
 * leaves the state as it was.
 */
export function VerifyCodeButton({
  send,
  onError,
  seconds = Limits.verifyCountdownSeconds,
  disabled,
  size,
  block,
  style,
}: VerifyCodeButtonProps) {
  const { t } = useT();
  const [everSent, setEverSent] = useState(false);
  const [left, setLeft] = useState(0);
  const [loading, setLoading] = useState(false);
  const state: VerifyCodeState = left > 0 ? 'sent' : everSent ? 'retry' : 'init';
  const counting = left > 0;

  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, [counting]);

  const onClick = async () => {
    setLoading(true);
    try {
      await send();
      setEverSent(true);
      setLeft(seconds);
    } catch (error) {
      onError?.(error);
    } finally {
      setLoading(false);
    }
  };

  const label =
    state === 'sent'
      ? t('verify.countdown', { count: left })
      : state === 'retry'
        ? t('verify.again')
        : t('verify.get');
  return (
    <Button
      onClick={() => void onClick()}
      // The spinner as a plain icon: antd's `loading` leaves its icon (named "loading") in the
      // button while it animates out, and it stays there while the label keeps changing.
      icon={loading ? <LoadingOutlined /> : undefined}
      aria-busy={loading}
      disabled={disabled || loading || state === 'sent'}
      data-state={state}
      size={size}
      block={block}
      style={{ minWidth: 112, ...style }}
    >
      {label}
    </Button>
  );
}
