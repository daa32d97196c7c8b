import { FileOutlined } from '@ant-design/icons';
import { useFieldsT } from '../i18n';
import { SinglePathField, type SinglePathFieldProps } from '../single-path-field';

export type FileFieldProps = SinglePathFieldProps;

/** Single file field (SPEC 2.5): the file name with delete, and "Select file". */
export function FileField(props: FileFieldProps) {
  const t = useFieldsT();
  return (
    <SinglePathField
      {...props}
      category="file"
      selectLabel={t('fields.selectFile')}
      icon={<FileOutlined />}
    />
  );
}
