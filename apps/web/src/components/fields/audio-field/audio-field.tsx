import { SoundOutlined } from '@ant-design/icons';
import { assetUrl } from '@/lib/urls';
import { useFieldsT } from '../i18n';
import { SinglePathField, type SinglePathFieldProps } from '../single-path-field';

export type AudioFieldProps = SinglePathFieldProps;

/** Audio field (SPEC 2.5): a player, the name with delete, and "Select audio". */
export function AudioField(props: AudioFieldProps) {
  const t = useFieldsT();
  return (
    <SinglePathField
      {...props}
      category="audio"
      selectLabel={t('fields.selectAudio')}
      icon={<SoundOutlined />}
      preview={(path) => (
        <audio className="atrium-field-audio" src={assetUrl(path)} controls preload="metadata" />
      )}
    />
  );
}
