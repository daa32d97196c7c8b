import { afterEach, describe, expect, it } from 'vitest';
import { tFiles } from '@/components/file-library/i18n';
import { i18n } from '@/lib/i18n';
import { categoryDeleteQuestion, deleteQuestion, replaceQuestion } from './picker-questions';

const cover = { kind: 'roomCover' as const, holderId: 3, label: '欢迎' };

afterEach(() => i18n.changeLanguage('zh-CN'));

describe('the questions picker actions ask (issue 28)', () => {
  it('says deleted files go to the trash for the setting’s days, naming the places using them', () => {
    expect(deleteQuestion(tFiles, 2, 14, [])).toBe(
      '确认删除？所选的 2 个文件将移入回收站，保留 14 天，期间可以恢复。',
    );
    expect(deleteQuestion(tFiles, 1, 30, ['聊天室「欢迎」的封面'])).toBe(
      '确认删除？所选文件正在使用：聊天室「欢迎」的封面。删除后这些位置将无法显示它们。所选的 1 个文件将移入回收站，保留 30 天，期间可以恢复。',
    );
  });

  it('asks before a replace, naming both files and where the new content shows', () => {
    expect(replaceQuestion(tFiles, 'a.png', 'new.png', ['聊天室「欢迎」的封面'])).toBe(
      '用「new.png」替换「a.png」？文件地址不变，原内容将被覆盖，以下位置将显示新内容：聊天室「欢迎」的封面。',
    );
    expect(replaceQuestion(tFiles, 'a.png', 'new.png', [])).toBe(
      '用「new.png」替换「a.png」？文件地址不变，原内容将被覆盖。',
    );
  });

  it('says what a category’s delete moves where and which used files go with it', () => {
    const preview = {
      files: 5,
      categories: 2,
      filesBelow: 3,
      parent: '图片库',
      used: [{ id: 7, filename: 'a.png', usedBy: [cover], hidden: 1 }],
      moreUsed: 2,
    };
    expect(categoryDeleteQuestion(tFiles, '假期', preview)).toBe(
      '确认删除？分类「假期」中的 5 个文件和 2 个子分类（含 3 个文件）将移到「图片库」，文件地址不变。' +
        '正在使用的文件：a.png（聊天室「欢迎」的封面、另有 1 处（无权查看））；另有 2 个正在使用的文件',
    );
    const empty = { ...preview, files: 0, categories: 0, filesBelow: 0, used: [], moreUsed: 0 };
    expect(categoryDeleteQuestion(tFiles, '假期', empty)).toBe(
      '确认删除？分类「假期」中没有文件和子分类。',
    );
  });

  it('speaks English in English, starting with SPEC’s "Confirm Delete ?"', async () => {
    await i18n.changeLanguage('en');
    const preview = {
      files: 1,
      categories: 0,
      filesBelow: 0,
      parent: 'Image Gallery',
      used: [],
      moreUsed: 0,
    };
    expect(categoryDeleteQuestion(tFiles, 'Trips', preview)).toBe(
      'Confirm Delete ? Category “Trips”: its files (1) will move to “Image Gallery”; file addresses stay the same.',
    );
    expect(deleteQuestion(tFiles, 3, 30, [])).toBe(
      'Confirm Delete ? The selected files (3) go to the trash, where they can be restored for 30 days.',
    );
  });
});
