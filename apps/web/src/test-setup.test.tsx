import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Button, Input } from 'antd';

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
