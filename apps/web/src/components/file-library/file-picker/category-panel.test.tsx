import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { installResizeObserver, setMediaPreferences } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { CategoryPanel } from './category-panel';

const tree = [
  { id: 1, name: 'Photos', _child: [{ id: 2, name: 'Trips', _child: [] }] },
  { id: 3, name: 'Docs', _child: [] },
];

beforeAll(installResizeObserver);

function renderPanel() {
  renderWithProviders(
    <CategoryPanel
      tree={tree}
      childKey="_child"
      current={1}
      loading={false}
      canAddEdit={false}
      canDelete={false}
      onSelect={() => undefined}
      onAdd={() => undefined}
      onEdit={() => undefined}
      onDelete={() => undefined}
    />,
  );
  const photos = () => screen.getAllByRole('treeitem')[0];
  return { tree: screen.getByRole('tree'), photos };
}

describe('the category tree by keys', () => {
  it('folds and unfolds key after key for a visitor who asked for less motion', () => {
    // antd's tree ignores these keys while its motion runs; with the motion off there is none.
    setMediaPreferences(['prefers-reduced-motion: reduce']);
    const { tree: element, photos } = renderPanel();
    fireEvent.focus(element);
    fireEvent.keyDown(element, { key: 'Home' });
    expect(photos()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(element, { key: 'ArrowLeft' });
    expect(photos()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(element, { key: 'Enter' });
    expect(photos()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(element, { key: 'Enter' });
    expect(photos()).toHaveAttribute('aria-expanded', 'false');
  });
});
