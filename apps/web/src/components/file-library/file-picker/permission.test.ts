import { afterEach, describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { usePermissionStore } from '@/stores/permission-store';
import { adminLibraryPermission, isAdminLibrary, useLibraryPermission } from './permission';

afterEach(() => usePermissionStore.getState().reset());

describe('library permission', () => {
  it("tells the admin area's library from a member's own, by address", () => {
    expect(isAdminLibrary('/admin/data/file_manager')).toBe(true);
    expect(isAdminLibrary('http://127.0.0.1:4000/admin/data/file_manager')).toBe(true);
    expect(isAdminLibrary('/member_data/file_manager')).toBe(false);
  });

  it('gives each flag from its own rule, and all four from a wildcard', () => {
    expect(adminLibraryPermission(['aigc/chat_room*'])).toEqual({
      view: false,
      upload: false,
      addEdit: false,
      delete: false,
    });
    expect(adminLibraryPermission(['data/file_manager/view'])).toEqual({
      view: true,
      upload: false,
      addEdit: false,
      delete: false,
    });
    expect(
      adminLibraryPermission(['data/file_manager/view', 'data/file_manager/delete']),
    ).toMatchObject({ view: true, delete: true, upload: false });
    expect(adminLibraryPermission(['data*'])).toEqual({
      view: true,
      upload: true,
      addEdit: true,
      delete: true,
    });
  });

  it("follows the signed-in admin's rules as they change; a member may do anything in their own", () => {
    const admin = renderHook(() => useLibraryPermission('/admin/data/file_manager'));
    expect(admin.result.current.view).toBe(false);
    usePermissionStore.getState().setRules(['data/file_manager/view']);
    admin.rerender();
    expect(admin.result.current).toMatchObject({ view: true, upload: false });
    const member = renderHook(() => useLibraryPermission('/member_data/file_manager'));
    expect(member.result.current).toEqual({
      view: true,
      upload: true,
      addEdit: true,
      delete: true,
    });
  });
});
