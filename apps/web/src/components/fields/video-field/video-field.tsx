import { VideoCameraOutlined } from '@ant-design/icons';
import { assetUrl } from '@/lib/urls';
import { useFieldsT } from '../i18n';
import { SinglePathField, type SinglePathFieldProps } from '../single-path-field';

export type VideoFieldProps = SinglePathFieldProps;

/** Video field (SPEC 2.5): a player, the name with delete, and "Select video". */
export function VideoField(props: VideoFieldProps) {
  const t = useFieldsT();
  return (
    <SinglePathField
      {...props}
      category="video"
      selectLabel={t('fields.selectVideo')}
      icon={<VideoCameraOutlined />}
      preview={(path) => (
        <video className="atrium-field-media" src={assetUrl(path)} controls preload="metadata" />
      )}
    />
  );
}
