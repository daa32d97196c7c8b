/** Documents as chat context (issue 18): Chinese, the default language. */
export const chatDocsZhCN = {
  'chatDocs.attach': '参考文档',
  'chatDocs.attachHint':
    '从我的文件中选择 PDF、TXT、MD、DOCX 或 CSV 文件（每个会话最多 {{max}} 个），回答会引用其中的段落',
  'chatDocs.unsupported': '只能使用 PDF、TXT、MD、DOCX 和 CSV 文件：已跳过 {{names}}',
  'chatDocs.full': '每个会话最多 {{max}} 个参考文档',
  'chatDocs.remove': '移除参考文档 {{name}}',
  'chatDocs.queued': '等待读取',
  'chatDocs.running': '读取中 {{progress}}%',
  'chatDocs.done': '已就绪',
  'chatDocs.donePages': '已就绪 · {{pages}} 页',
  'chatDocs.failed': '无法读取',
  'chatDocs.notReadyHint': '正在读取的文档暂不参与回答，读取完成后自动使用',
  'chatDocs.citations': '引用',
  'chatDocs.page': '第 {{page}} 页',
  'chatDocs.passageTitle': '引用 [{{n}}]',
  'chatDocs.openFile': '打开文件',
  'chatDocs.close': '关闭',
};

export type ChatDocsKey = keyof typeof chatDocsZhCN;
export type ChatDocsMessages = Record<ChatDocsKey, string>;
