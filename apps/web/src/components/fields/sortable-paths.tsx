import { useState, type ReactNode } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { randomId } from '@/lib/random';
import { dragAnnouncements } from './drag-announcements';
import { useFieldsT } from './i18n';
import { moveItem } from './paths';
import { assignKeys, samePaths, type Keyed } from './stable-keys';

export interface SortablePathsProps {
  paths: string[];
  onChange: (paths: string[]) => void;
  layout: 'grid' | 'list';
  disabled?: boolean;
  children: (items: Keyed[]) => ReactNode;
}

/**
 * Drag and drop reordering of a list of paths (@dnd-kit): by pointer once it moved a few pixels
 * (so clicks on the actions stay clicks), or by keyboard (space to lift, arrows, space to drop).
 */
export function SortablePaths({ paths, onChange, layout, disabled, children }: SortablePathsProps) {
  const [keyed, setKeyed] = useState<Keyed[]>(() => assignKeys([], paths, randomId));
  const current = samePaths(keyed, paths) ? keyed : assignKeys(keyed, paths, randomId);
  if (current !== keyed) setKeyed(current);

  const t = useFieldsT();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = current.findIndex((item) => item.key === active.id);
    const to = current.findIndex((item) => item.key === over.id);
    if (from < 0 || to < 0) return;
    const moved = moveItem(current, from, to);
    setKeyed(moved);
    onChange(moved.map((item) => item.path));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      // dnd-kit's live region and instructions go to the body: inside a list they would be
      // children a list may not have (axe aria-required-children).
      // What it says is the file's name and place, in the page's language.
      accessibility={{ container: document.body, ...dragAnnouncements(current, t) }}
    >
      <SortableContext
        items={current.map((item) => item.key)}
        strategy={layout === 'grid' ? rectSortingStrategy : verticalListSortingStrategy}
        disabled={disabled}
      >
        {children(current)}
      </SortableContext>
    </DndContext>
  );
}

/**
 * One item's drag wiring inside `SortablePaths` (the files list and the images grid alike): its
 * node and place while moving, whether it is dragged, and its handle's props (none when disabled).
 */
export function useSortablePath(id: string, disabled: boolean) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id, disabled });
  return {
    nodeRef: setNodeRef,
    style: { transform: CSS.Translate.toString(transform), transition },
    dragging: isDragging,
    handleRef: setActivatorNodeRef,
    handleProps: disabled ? undefined : { ...attributes, ...listeners },
  };
}
