import { Button, Space } from 'antd';
import { confirmDialog } from '@/lib/feedback';
import { asyncHandler } from '@/lib/async-handler';

export interface RowActionsProps {
  editLabel: string;
  deleteLabel: string;
  /** Asked ("提示" dialog) before `onDelete` runs. */
  confirmDelete: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** A table row's Edit and Delete links; Delete asks first. */
export function RowActions({
  editLabel,
  deleteLabel,
  confirmDelete,
  onEdit,
  onDelete,
}: RowActionsProps) {
  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={onEdit}>
        {editLabel}
      </Button>
      <Button
        type="link"
        size="small"
        danger
        onClick={asyncHandler(async () => {
          if (await confirmDialog(confirmDelete)) onDelete();
        })}
      >
        {deleteLabel}
      </Button>
    </Space>
  );
}
