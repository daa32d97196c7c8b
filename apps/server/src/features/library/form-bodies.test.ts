import type { AreaName } from '@atrium/shared/areas';
import { Code } from '@atrium/shared';
import {
  modstartOnlyActions,
  type CategoryResponse,
  type ListResponse,
} from '@atrium/shared/contract/files';
import { describe, expect, it } from 'vitest';
import { authHeaders, type TestApp, useTestApp } from '../../testing/test-app';
import { FileClient, multipartBody, textFile, useUploadConfig } from './library.testing';

/** ModStart's jQuery calls post `application/x-www-form-urlencoded` bodies (issue 31 point 1). */
describe('form bodies on the file manager', () => {
  let t: TestApp;
  useTestApp(async (made) => {
    t = made;
    await useUploadConfig(t);
  });

  const client = async (area: AreaName) =>
    new FileClient(
      t,
      { area, ...(await (area === 'admin' ? t.loginAdmin() : t.loginMember())) },
      'file',
    ).in('en');

  describe.each<AreaName>(['member', 'admin'])('%s area', (area) => {
    it('serves every dialog call with string values, as JSON would', async () => {
      const c = await client(area);
      const config = await c.callForm('action=config');
      expect(config.code, config.msg).toBe(Code.Success);

      const made = await c.callForm<{ id: number }>('action=categoryEdit&id=0&pid=0&title=Docs');
      expect(made.code, made.msg).toBe(Code.Success);
      const docs = made.data.id;
      const renamed = await c.callForm(`action=categoryEdit&id=${docs}&pid=0&title=Papers`);
      expect(renamed.code, renamed.msg).toBe(Code.Success);
      const tree = await c.callForm<CategoryResponse>('action=category');
      expect(tree.data.categoryListAll.map((item) => item.name)).toContain('Papers');

      const a = await c.uploadAndSave({ name: 'a.txt', data: textFile(300, 'a') });
      const b = await c.uploadAndSave({ name: 'b.txt', data: textFile(300, 'b') });
      // `id` as ModStart sends it ("3,5"), then as jQuery sends an array.
      const moved = await c.callForm(`action=fileEdit&id=${a.id},${b.id}&categoryId=${docs}`);
      expect(moved, moved.msg).toMatchObject({ code: Code.Success, msg: 'Edit Success' });
      const listed = await c.callForm<ListResponse>(
        `action=list&page=1&categoryId=${docs}&keywords=&withUsage=true`,
      );
      expect(listed.code, listed.msg).toBe(Code.Success);
      expect(listed.data.records.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(listed.data.records[0]?.usedBy).toEqual([]);

      const deleted = await c.callForm(
        `action=fileDelete&id%5B%5D=${a.id}&id%5B%5D=${b.id}&confirm=true`,
      );
      expect(deleted.code, deleted.msg).toBe(Code.Success);
      const left = await c.callForm<ListResponse>(`action=list&categoryId=${docs}`);
      expect(left.data.records).toEqual([]);
      const gone = await c.callForm(`action=categoryDelete&id=${docs}`);
      expect(gone.code, gone.msg).toBe(Code.Success);
    });

    it('is exactly as strict as JSON', async () => {
      const c = await client(area);
      const cases: [string, Record<string, unknown>][] = [
        ['action=list&page=abc', { action: 'list', page: 'abc' }],
        ['action=list&categoryId=-1', { action: 'list', categoryId: -1 }],
        ['action=list&unused=yes', { action: 'list', unused: 'yes' }],
        ['action=fileEdit&id=1,x&categoryId=0', { action: 'fileEdit', id: '1,x', categoryId: 0 }],
        ['action=categoryEdit&title=', { action: 'categoryEdit', title: '' }],
        ['action=categoryEdit&title[]=a', { action: 'categoryEdit', title: ['a'] }],
        ['action=nope', { action: 'nope' }],
        ['', {}],
      ];
      for (const [form, json] of cases) {
        const viaForm = await c.callForm(form);
        expect(viaForm.code, form).toBe(Code.Failure);
        expect(viaForm, form).toEqual(await c.call(json));
      }
    });
  });

  it("refuses ModStart's extra actions by name, in the reader's language", async () => {
    const c = await client('admin');
    for (const action of modstartOnlyActions) {
      const viaForm = await c.callForm(`action=${action}&data=x`);
      expect(viaForm, action).toMatchObject({
        code: Code.Failure,
        msg: `The file manager does not offer "${action}": upload in chunks (init, then the chunks) and file the upload with save`,
        data: { error: 'files.actionNotOffered', params: { action }, field: 'action' },
      });
      const zh = await new FileClient(t, c.as, 'image').call({ action });
      expect(zh.msg).toBe(`文件管理不提供“${action}”操作：请先分片上传，再保存到文件库`);
    }
  });

  it('refuses them by name when they come as a multipart upload or in the query, and files nothing', async () => {
    const c = await client('member');
    const file = { name: 'direct.txt', data: textFile(300) };
    const refused = {
      code: Code.Failure,
      data: { error: 'files.actionNotOffered', field: 'action' },
    };
    // ModStart's editor posts the whole file at once, its action a field of the form.
    const direct = await c.sendChunk(file, 0, {
      fields: { action: 'uploadDirect', chunks: '1' },
    });
    expect(direct.json).toMatchObject({ ...refused, data: { params: { action: 'uploadDirect' } } });
    // ModStart reads its input from the query too.
    const { payload, contentType } = multipartBody({ name: 'direct.txt' }, file.data);
    const queried = await t.app.inject({
      method: 'POST',
      url: `${c.url}?action=uploadDirectRaw`,
      headers: { ...authHeaders('member', c.as.token), 'content-type': contentType },
      payload,
    });
    expect(queried.json()).toMatchObject({
      ...refused,
      data: { params: { action: 'uploadDirectRaw' } },
    });
    const asJson = await t.app.inject({
      method: 'POST',
      url: `${c.url}?action=saveRaw`,
      headers: { ...authHeaders('member', c.as.token), 'content-type': 'application/json' },
      payload: JSON.stringify({ action: 'list' }),
    });
    expect(asJson.json()).toMatchObject({ ...refused, data: { params: { action: 'saveRaw' } } });
    const list = await c.call<ListResponse>({ action: 'list' });
    expect(list.data.total).toBe(0);
  });

  it('stays refused on every other route', async () => {
    const { token } = await t.loginAdmin();
    for (const [url, area] of [
      ['/admin/api/app/config', 'admin'],
      ['/admin/api/roles/list', 'admin'],
      ['/api/auth/login', 'member'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: {
          ...authHeaders(area, token),
          'content-type': 'application/x-www-form-urlencoded',
          'accept-language': 'en',
        },
        payload: 'page=1',
      });
      expect(res.json(), url).toMatchObject({
        code: Code.Failure,
        msg: expect.stringMatching(/content type/i),
      });
    }
  });
});
