import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, Input, Modal } from 'antd';
import { Link, Outlet } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import { renderRoutes, renderWithProviders } from '@/test-utils/render';
import { LeaveGuard } from './leave-guard';
import { afterDiscard, hasUnsavedChanges, useUnsavedEdits } from './unsaved-changes';

const user = userEvent.setup({ delay: null });

beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
});
beforeEach(() => setLanguage('zh-CN'));
afterEach(cleanup);

/**
 * Answers the question asked last. antd keeps a closed question in the page while it fades out
 * (jsdom never ends the fade), so the newest question's button is the last of that name.
 */
async function answer(name: string) {
  const buttons = await screen.findAllByRole('button', { name });
  const newest = buttons[buttons.length - 1];
  if (!newest) throw new Error(`no ${name} button`);
  fireEvent.click(newest);
}

/** How many times `text` was asked so far (faded questions stay in the page, see answer). */
const asked = (text: RegExp) => screen.queryAllByText(text).length;

/** A dialog with one field, as the admin dialogs use the mechanism. */
function NameDialog({ onClosed }: { onClosed: () => void }) {
  const [open, setOpen] = useState(true);
  const edits = useUnsavedEdits(open);
  const close = () => {
    setOpen(false);
    onClosed();
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <Modal open={open} title="Name" onCancel={edits.guard(close)} destroyOnHidden>
        <Form onValuesChange={edits.changed}>
          <Form.Item name="name" label="Name">
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

const closeQuestion = /^修改尚未保存，确定关闭吗？关闭后所做的修改将会丢失。$/;
const leaveQuestion = /^本页有尚未保存的修改，确定离开吗？离开后所做的修改将会丢失。$/;

describe('useUnsavedEdits in a dialog', () => {
  it('closes at once while nothing was typed', async () => {
    let closed = 0;
    renderWithProviders(<NameDialog onClosed={() => closed++} />);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    await waitFor(() => expect(closed).toBe(1));
    expect(asked(closeQuestion)).toBe(0);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('asks before Esc drops what was typed; keeping goes on editing, discarding closes', async () => {
    let closed = 0;
    renderWithProviders(<NameDialog onClosed={() => closed++} />);
    const field = screen.getByRole('textbox', { name: 'Name' });
    await user.type(field, 'Ada');
    expect(hasUnsavedChanges()).toBe(true);

    fireEvent.keyDown(field, { key: 'Escape' });
    await waitFor(() => expect(asked(closeQuestion)).toBe(1));
    // A second Esc or a click on × while it is asked does not stack a second question.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(asked(closeQuestion)).toBe(1);
    // Focus starts on the safe answer: Enter keeps what was typed.
    await waitFor(() => expect(screen.getByRole('button', { name: '继续编辑' })).toHaveFocus());
    await answer('继续编辑');
    expect(closed).toBe(0);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Ada');

    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    await waitFor(() => expect(asked(closeQuestion)).toBe(2));
    expect(closed).toBe(0);
    await answer('放弃修改');
    await waitFor(() => expect(closed).toBe(1));
    expect(hasUnsavedChanges()).toBe(false);

    // Opened again, the form starts clean: closing asks nothing.
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    fireEvent.keyDown(await screen.findByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    await waitFor(() => expect(closed).toBe(2));
    expect(asked(closeQuestion)).toBe(2);
  });

  it('asks in English on the English page', async () => {
    setLanguage('en');
    renderWithProviders(<NameDialog onClosed={() => undefined} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'x');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    expect(
      await screen.findByText('Close without saving? The changes you made will be lost.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Discard changes' })).toBeInTheDocument();
    await answer('Keep editing');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('x');
  });
});

/** A settings page: its form counts as unsaved once typed in, until saved. */
function SettingsPage() {
  const edits = useUnsavedEdits(true);
  return (
    <Form onValuesChange={edits.changed}>
      <Form.Item name="site" label="Site">
        <Input />
      </Form.Item>
      <button type="button" onClick={edits.saved}>
        save
      </button>
    </Form>
  );
}

function Layout() {
  return (
    <>
      <LeaveGuard />
      <nav>
        <Link to="/other">other page</Link>
      </nav>
      <Outlet />
    </>
  );
}

const routes = [
  {
    element: <Layout />,
    children: [
      { path: '/settings', element: <SettingsPage /> },
      { path: '/other', element: <p>the other page</p> },
      { path: '/start', element: <Link to="/settings">to settings</Link> },
    ],
  },
];
/** A cancelable beforeunload, as a closing tab sends it; true when the page asked to stay. */
const closeTab = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

/** Whether a navigation waits on the question. */
const heldAt = (router: { state: { blockers: Map<string, { state: string }> } }) =>
  [...router.state.blockers.values()].some((blocker) => blocker.state !== 'unblocked');

describe('LeaveGuard', () => {
  it('lets a clean page go without a word', async () => {
    const { router } = renderRoutes(routes, '/settings');
    expect(closeTab()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'other page' }));
    expect(await screen.findByText('the other page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/other');
  });

  it('asks before a link, the back button or closing the tab drops unsaved edits', async () => {
    const { router } = renderRoutes(routes, '/start');
    await user.click(screen.getByRole('link', { name: 'to settings' }));
    await user.type(await screen.findByRole('textbox', { name: 'Site' }), 'Garden');
    expect(closeTab()).toBe(true);

    await user.click(screen.getByRole('link', { name: 'other page' }));
    await waitFor(() => expect(asked(leaveQuestion)).toBe(1));
    await answer('继续编辑');
    await waitFor(() => expect(heldAt(router)).toBe(false));
    expect(router.state.location.pathname).toBe('/settings');
    expect(screen.getByRole('textbox', { name: 'Site' })).toHaveValue('Garden');

    // The browser's back: a POP the guard holds until answered.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(asked(leaveQuestion)).toBe(2));
    await answer('继续编辑');
    await waitFor(() => expect(heldAt(router)).toBe(false));
    expect(router.state.location.pathname).toBe('/settings');

    await act(() => router.navigate(-1));
    await waitFor(() => expect(asked(leaveQuestion)).toBe(3));
    await answer('放弃修改');
    await waitFor(() => expect(router.state.location.pathname).toBe('/start'));
    expect(hasUnsavedChanges()).toBe(false);
    expect(closeTab()).toBe(false);
  });

  it('lets the page go once its edits are saved', async () => {
    const { router } = renderRoutes(routes, '/settings');
    await user.type(screen.getByRole('textbox', { name: 'Site' }), 'Garden');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await user.click(screen.getByRole('link', { name: 'other page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
    expect(asked(leaveQuestion)).toBe(0);
  });
});

describe('afterDiscard', () => {
  it('acts at once on a clean page, and only when agreed to with unsaved edits', async () => {
    renderRoutes(routes, '/settings');
    let opened = 0;
    afterDiscard(() => opened++);
    expect(opened).toBe(1);
    await user.type(screen.getByRole('textbox', { name: 'Site' }), 'x');
    afterDiscard(() => opened++);
    await waitFor(() => expect(asked(leaveQuestion)).toBe(1));
    await answer('继续编辑');
    await waitFor(() => expect(asked(leaveQuestion)).toBe(1));
    expect(opened).toBe(1);
    afterDiscard(() => opened++);
    await waitFor(() => expect(asked(leaveQuestion)).toBe(2));
    await answer('放弃修改');
    await waitFor(() => expect(opened).toBe(2));
  });
});
