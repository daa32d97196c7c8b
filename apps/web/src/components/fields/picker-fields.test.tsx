// @vitest-environment happy-dom
// (antd's style rules make each style lookup of jsdom slow; see file-picker.test.tsx)
import { useState, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import { tFiles } from '@/components/file-library/i18n';
import {
  antdLabel as spaced,
  testFile,
  testUser,
  setUpFileManagerTestServer,
} from '@/components/file-library/testing/picker-test-setup';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { AudioField } from './audio-field/audio-field';
import { FieldDefaultsProvider } from './field-defaults';
import { FileField } from './file-field/file-field';
import { FilesField } from './files-field/files-field';
import { tFields } from './i18n';
import { ImageField } from './image-field/image-field';
import { ImagesField } from './images-field/images-field';
import { VideoField } from './video-field/video-field';
import { RichTextField } from './rich-text-field/rich-text-field';
import { usePermissionStore } from '@/stores/permission-store';

const testServer = setUpFileManagerTestServer(
  (s) =>
    ['a.png', 'b.jpg', 'c.png', 'd.pdf', 'e.mp4', 'f.mp3'].forEach((name, i) =>
      s.files.push(testFile(i + 1, name)),
    ),
  { chunkSize: 64 * 1024 },
);
afterEach(() => {
  delete window.__selectorDialogServer;
  usePermissionStore.getState().reset();
});

/**
 * A real antd Form holding one field under `name`, so each test drives the field the way a page
 * does; `values()` is what the form would submit.
 */
function renderInForm(name: string, initial: unknown, field: ReactElement, url = testServer().url) {
  let read: () => unknown = () => undefined;
  function Harness() {
    const [form] = Form.useForm();
    read = () => form.getFieldValue(name);
    return (
      <FieldDefaultsProvider url={url}>
        <Form form={form} initialValues={{ [name]: initial }}>
          <Form.Item name={name} label="Field">
            {field}
          </Form.Item>
        </Form>
      </FieldDefaultsProvider>
    );
  }
  const view = renderWithProviders(<Harness />);
  return { ...view, values: () => read(), user: testUser() };
}

const card = (name: string) => screen.findByRole('checkbox', { name });
const confirmPicker = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: spaced(tFiles('files.confirm')) }));

describe('ImageField', () => {
  it('shows the image at 60 x 60, enlarges it in a dialog, and deletes it', async () => {
    const { container, user, values } = renderInForm('logo', '/data/files/a.png', <ImageField />);
    const thumb = container.querySelector('.atrium-field-thumb');
    expect(thumb).toHaveStyle({ width: '60px', height: '60px' });
    expect(within(thumb as HTMLElement).getByRole('img', { name: 'a.png' })).toHaveAttribute(
      'src',
      '/data/files/a.png',
    );

    await user.click(screen.getByRole('button', { name: `${tFields('fields.preview')} a.png` }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'a.png' })).toBeInTheDocument();
    expect(within(dialog).getByText('a.png')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `${tFields('common.delete')} a.png` }));
    expect(values()).toBe('');
    expect(container.querySelector('.atrium-field-thumb')).toBeNull();
  });

  it('"Select image" opens the image library for one item and takes its path', async () => {
    const { user, values } = renderInForm('logo', '', <ImageField />);
    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectImage')) }));
    await user.click(await card('a.png'));
    await user.click(await card('b.jpg'));
    expect(await card('a.png')).toHaveAttribute('aria-checked', 'false');
    await confirmPicker(user);
    await waitFor(() => expect(values()).toBe('/data/files/b.jpg'));
    expect(testServer().callsOf('list')[0]?.category).toBe('image');
  });

  it("uploads directly into the image library and keeps the answer's fullPath", async () => {
    const { values, container } = renderInForm('logo', '', <ImageField upload />);
    const input = container.querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no upload input');
    const png = new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'pic.png', {
      type: 'image/png',
    });
    await userEvent.setup({ applyAccept: false }).upload(input, png);
    await waitFor(() => expect(values()).toMatch(/^http:\/\/cdn\.test\/data\/files\/\w+\.png$/));
    expect(testServer().callsOf('init')[0]?.category).toBe('image');
    expect(testServer().callsOf('save')[0]?.body).toMatchObject({ name: 'pic.png', categoryId: 0 });
  });

  it('without an external selector server, says so instead of opening', async () => {
    const { user } = renderInForm('logo', '', <ImageField external />);
    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectImage')) }));
    expect(await screen.findByText(tFiles('files.selectorNotConfigured'))).toBeInTheDocument();
  });
});

describe('ImagesField', () => {
  it('shows the images in order with their count, and deletes one', async () => {
    const { container, user, values } = renderInForm(
      'banners',
      ['/data/files/a.png', '/data/files/b.jpg', '/data/files/c.png'],
      <ImagesField max={5} />,
    );
    const names = () =>
      [...container.querySelectorAll('.atrium-field-thumb img')].map((i) => i.getAttribute('alt'));
    expect(names()).toEqual(['a.png', 'b.jpg', 'c.png']);
    expect(screen.getByText(tFields('fields.count', { count: 3, max: 5 }))).toBeInTheDocument();
    // A list of list items only (axe aria-required-children): the images, then the add button.
    const grid = screen.getByRole('list');
    expect([...grid.children].map((child) => child.getAttribute('role'))).toEqual([
      'listitem',
      'listitem',
      'listitem',
      'listitem',
    ]);
    expect(within(grid).getAllByRole('listitem').at(-1)).toContainElement(
      screen.getByRole('button', { name: tFields('fields.selectImage') }),
    );
    expect(
      screen.getByRole('button', { name: tFields('fields.dragItem', { name: 'b.jpg' }) }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `${tFields('common.delete')} b.jpg` }));
    expect(values()).toEqual(['/data/files/a.png', '/data/files/c.png']);
    expect(names()).toEqual(['a.png', 'c.png']);
  });

  it('lets the dialog pick only max minus what is chosen, then is full', async () => {
    const { user, values } = renderInForm(
      'banners',
      ['/data/files/a.png'],
      <ImagesField max={3} />,
    );
    await user.click(screen.getByRole('button', { name: tFields('fields.selectImage') }));
    await user.click(await card('b.jpg'));
    await user.click(await card('c.png'));
    await user.click(await card('d.pdf'));
    expect(await screen.findByText(tFiles('files.selectAtMost', { n: 2 }))).toBeInTheDocument();
    expect(await card('d.pdf')).toHaveAttribute('aria-checked', 'false');
    await confirmPicker(user);
    await waitFor(() =>
      expect(values()).toEqual(['/data/files/a.png', '/data/files/b.jpg', '/data/files/c.png']),
    );
    expect(screen.getByRole('button', { name: tFields('fields.selectImage') })).toBeDisabled();
    expect(screen.getByText(tFields('fields.full', { max: 3 }))).toBeInTheDocument();
  });
});

describe('FileField and FilesField', () => {
  it('shows the name after the last "/", opens it, deletes it, and selects from the file library', async () => {
    const { user, values } = renderInForm(
      'terms',
      '/data/file/2026/terms%20of%20use.pdf?v=2',
      <FileField />,
    );
    const link = screen.getByRole('link', { name: 'terms of use.pdf' });
    expect(link).toHaveAttribute('href', '/data/file/2026/terms%20of%20use.pdf?v=2');
    expect(link).toHaveAttribute('target', '_blank');

    await user.click(
      screen.getByRole('button', { name: `${tFields('common.delete')} terms of use.pdf` }),
    );
    expect(values()).toBe('');
    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectFile')) }));
    await user.click(await card('d.pdf'));
    await confirmPicker(user);
    await waitFor(() => expect(values()).toBe('/data/files/d.pdf'));
    expect(testServer().callsOf('list')[0]?.category).toBe('file');
  });

  it('lists files in order, each with a drag handle and delete, and appends picked ones', async () => {
    const { container, user, values } = renderInForm(
      'docs',
      ['/x/one.pdf', '/x/two.pdf'],
      <FilesField max={3} />,
    );
    const names = () =>
      [...container.querySelectorAll('.atrium-field-file-name')].map((a) => a.textContent);
    expect(names()).toEqual(['one.pdf', 'two.pdf']);
    expect(
      screen.getByRole('button', { name: tFields('fields.dragItem', { name: 'one.pdf' }) }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectFile')) }));
    // One place left: the dialog works as a single choice, a second click moves it.
    await user.click(await card('a.png'));
    await user.click(await card('d.pdf'));
    expect(await card('a.png')).toHaveAttribute('aria-checked', 'false');
    await confirmPicker(user);
    await waitFor(() =>
      expect(values()).toEqual(['/x/one.pdf', '/x/two.pdf', '/data/files/d.pdf']),
    );
    expect(
      screen.getByRole('button', { name: spaced(tFields('fields.selectFile')) }),
    ).toBeDisabled();

    await user.click(screen.getByRole('button', { name: `${tFields('common.delete')} one.pdf` }));
    expect(values()).toEqual(['/x/two.pdf', '/data/files/d.pdf']);
    expect(names()).toEqual(['two.pdf', 'd.pdf']);
  });
});

describe('VideoField and AudioField', () => {
  it('"Select video" picks from the video library and shows a player', async () => {
    const { container, user, values } = renderInForm('intro', '', <VideoField />);
    expect(container.querySelector('video')).toBeNull();
    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectVideo')) }));
    await user.click(await card('e.mp4'));
    await confirmPicker(user);
    await waitFor(() => expect(values()).toBe('/data/files/e.mp4'));
    expect(container.querySelector('video')).toHaveAttribute('src', '/data/files/e.mp4');
    expect(testServer().callsOf('list')[0]?.category).toBe('video');
  });

  it('"Select audio" picks from the audio library and shows a player', async () => {
    const { container, user, values } = renderInForm('sound', '', <AudioField />);
    await user.click(screen.getByRole('button', { name: spaced(tFields('fields.selectAudio')) }));
    await user.click(await card('f.mp3'));
    await confirmPicker(user);
    await waitFor(() => expect(values()).toBe('/data/files/f.mp3'));
    expect(container.querySelector('audio')).toHaveAttribute('src', '/data/files/f.mp3');
    expect(testServer().callsOf('list')[0]?.category).toBe('audio');
  });
});

describe('a controlled field outside a form', () => {
  it('reports changes through onChange and shows what it is given', async () => {
    function Controlled() {
      const [value, setValue] = useState<string[]>(['/p/1.png', '/p/2.png']);
      return (
        <>
          <ImagesField value={value} onChange={setValue} url={testServer().url} />
          <output>{value.join(',')}</output>
        </>
      );
    }
    const { container } = renderWithProviders(<Controlled />);
    const user = testUser();
    await user.click(screen.getByRole('button', { name: `${tFields('common.delete')} 1.png` }));
    expect(container.querySelector('output')).toHaveTextContent(/^\/p\/2\.png$/);
  });
});

describe("fields on the admin library follow the admin's rules (SPEC 2.4, 6)", () => {
  const selectImage = () =>
    screen.queryByRole('button', { name: spaced(tFields('fields.selectImage')) });

  it('without View, every field says so in place of its button and asks the server nothing', async () => {
    usePermissionStore.getState().setRules(['aigc/chat_room*']);
    renderInForm('logo', '', <ImageField upload />, testServer().adminUrl);
    expect(await screen.findByText(tFields('fields.noLibraryAccess'))).toBeInTheDocument();
    expect(selectImage()).toBeNull();
    // Nor may it upload: the Upload rule is missing too.
    expect(screen.queryByRole('button', { name: spaced(tFields('fields.upload')) })).toBeNull();
    cleanup();
    renderInForm('gallery', [], <ImagesField max={3} />, testServer().adminUrl);
    expect(await screen.findByText(tFields('fields.noLibraryAccess'))).toBeInTheDocument();
    expect(selectImage()).toBeNull();
    cleanup();
    renderInForm('files', [], <FilesField max={3} />, testServer().adminUrl);
    expect(await screen.findByText(tFields('fields.noLibraryAccess'))).toBeInTheDocument();
    cleanup();
    renderInForm('doc', '', <FileField />, testServer().adminUrl);
    expect(await screen.findByText(tFields('fields.noLibraryAccess'))).toBeInTheDocument();
    cleanup();
    renderInForm('about', '<p>x</p>', <RichTextField />, testServer().adminUrl);
    expect(await screen.findByRole('button', { name: tFields('fields.rich.bold') })).toBeVisible();
    expect(screen.queryByRole('button', { name: tFields('fields.rich.image') })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(testServer().calls).toEqual([]);
  });

  it('with View only, the picker opens to choose but offers no upload, category or delete', async () => {
    usePermissionStore.getState().setRules(['data/file_manager/view']);
    const { user, values } = renderInForm('logo', '', <ImageField upload />, testServer().adminUrl);
    expect(screen.queryByRole('button', { name: spaced(tFields('fields.upload')) })).toBeNull();
    const open = selectImage();
    if (!open) throw new Error('no select button');
    await user.click(open);
    await user.click(await card('a.png'));
    const dialog = screen.getByRole('dialog');
    expect(
      within(dialog).queryByRole('button', { name: spaced(tFiles('files.upload')) }),
    ).toBeNull();
    expect(within(dialog).queryByRole('button', { name: tFiles('files.addCategory') })).toBeNull();
    expect(
      within(dialog).queryByRole('button', { name: spaced(tFiles('common.delete')) }),
    ).toBeNull();
    await confirmPicker(user);
    await waitFor(() => expect(values()).toBe('/data/files/a.png'));
  });

  it('with View and Upload, the field uploads too', async () => {
    usePermissionStore.getState().setRules(['data/file_manager/view', 'data/file_manager/upload']);
    renderInForm('logo', '', <ImageField upload />, testServer().adminUrl);
    expect(selectImage()).not.toBeNull();
    expect(
      screen.getByRole('button', { name: spaced(tFields('fields.upload')) }),
    ).toBeInTheDocument();
    // The upload button has asked for the library's upload settings: nothing is left in flight.
    await waitFor(() => expect(testServer().callsOf('config')).toHaveLength(1));
  });
});
