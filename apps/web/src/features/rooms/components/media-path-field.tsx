import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { DeleteOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { FilePicker } from '@/components/file-picker/file-picker';
import { ImageCover } from '@/components/image-cover/image-cover';
import { useRoomsT } from '../i18n';

const adminLibrary = '/admin/data/file_manager';

export interface MediaPathFieldProps {
  value?: string;
  onChange?: (value: string) => void;
  library: 'image' | 'video' | 'audio';
  selectLabel: string;
}

/**
 * A path from the admin file library (or typed by hand), with a preview for images. Stands in
 * for the issue-5 image/video/audio form fields until those exist.
 */
export function MediaPathField({
  value = '',
  onChange,
  library,
  selectLabel,
}: MediaPathFieldProps) {
  const t = useRoomsT();
  const [open, setOpen] = useState(false);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {library === 'image' && value && (
        <div style={{ width: 160, borderRadius: 8, overflow: 'hidden' }}>
          <ImageCover src={value} ratio="16:9" />
        </div>
      )}
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          maxLength={1000}
          placeholder="/data/..."
        />
        <Button icon={<FolderOpenOutlined />} onClick={() => setOpen(true)}>
          {selectLabel}
        </Button>
        {value && (
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('rooms.clear')}
            onClick={() => onChange?.('')}
          />
        )}
      </Space.Compact>
      <FilePicker
        url={adminLibrary}
        category={library}
        open={open}
        onClose={() => setOpen(false)}
        onConfirm={(items) => {
          const first = items[0];
          if (first) onChange?.(first.path);
          setOpen(false);
        }}
      />
    </Space>
  );
}
