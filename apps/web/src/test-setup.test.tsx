import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Button, Input, Modal } from 'antd';

/**
 * The web tests are fast only while test-setup.ts keeps antd's injected CSS out of jsdom, which
 * it recognises by rc-util's `data-rc-order` mark and its `innerHTML` write. Should either change
 * with an upgrade, this fails here, by name, instead of every antd test quietly slowing down.
 */
describe('the test setup', () => {
  it("keeps antd's injected styles empty", () => {
    render(
      <>
        <Button type="primary">Save</Button>
        <Input placeholder="Name" />
      </>,
    );
    const styles = [...document.head.querySelectorAll('style')];
    // antd still injects its styles as rc-util's marked <style> elements...
    expect(styles.filter((s) => s.hasAttribute('data-rc-order')).length).toBeGreaterThan(0);
    // ...and none of them holds a rule, nor does any unmarked <style> hold antd's (its `.ant-`
    // classes or its hashed `.css-` scope). Other libraries' styles (CodeMirror's, from another
    // file on the same worker) are not the setup's business.
    const antdRules = (s: HTMLStyleElement) =>
      s.hasAttribute('data-rc-order')
        ? (s.textContent ?? '') !== ''
        : /\.(ant|css)-/.test(s.textContent ?? '');
    expect(styles.filter(antdRules).map((s) => s.outerHTML)).toEqual([]);
  });
});

/**
 * antd routes Esc through rc-component's module-wide stack of open portals, and under
 * NODE_ENV=test every portal has the same id there: a dialog an earlier test left open outside
 * its tree (antd's static confirm, whose fade jsdom never ends) kept the one entry, and the next
 * test's dialog never heard its Esc (a full run failed so). The setup empties the stack after
 * every test.
 */
describe('Esc between tests', () => {
  it('leaves a static dialog open outside the rendered tree', async () => {
    Modal.confirm({ title: 'left open by the first test', content: 'x' });
    expect(await screen.findAllByText('left open by the first test')).not.toHaveLength(0);
  });

  it("closes the next test's dialog on Esc", async () => {
    const onCancel = vi.fn();
    render(
      <Modal open title="The second test's dialog" onCancel={onCancel}>
        <input aria-label="Field" />
      </Modal>,
    );
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Field' }), { key: 'Escape' });
    await vi.waitFor(() => expect(onCancel).toHaveBeenCalled(), { timeout: 2_000 });
  });
});
