import {
  Children,
  isValidElement,
  memo,
  useRef,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from 'react';
import { Button, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { copyText } from '@/lib/copy';
import { useChatT } from '../i18n';

/** The fence's language (```python), from the class the markdown gives the inner <code>. */
function languageOf(children: ReactNode): string | undefined {
  const code = Children.toArray(children)[0];
  if (!isValidElement<{ className?: string }>(code)) return undefined;
  return /(?:^|\s)language-([\w+#.-]+)/.exec(code.props.className ?? '')?.[1];
}

/** A code block under a bar holding its language and the copy button, so neither covers code. */
function CodeBlock(props: ComponentPropsWithoutRef<'pre'>) {
  const t = useChatT();
  const ref = useRef<HTMLPreElement>(null);
  const language = languageOf(props.children);
  return (
    <div className="atrium-md-code">
      <div className="atrium-md-code-bar">
        <span className="atrium-md-code-lang">{language ?? t('chat.code')}</span>
        <Tooltip title={t('chat.copyCode')}>
          <Button
            size="small"
            type="text"
            className="atrium-md-code-copy"
            aria-label={t('chat.copyCode')}
            icon={<CopyOutlined />}
            onClick={() => void copyText(ref.current?.innerText ?? '')}
          />
        </Tooltip>
      </div>
      <pre ref={ref} {...props} />
    </div>
  );
}

const components: Components = {
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  a: ({ node: _node, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer nofollow" />
  ),
  table: ({ node: _node, ...props }) => (
    <div className="atrium-md-table">
      <table {...props} />
    </div>
  ),
};

/**
 * A chat message as markdown (GitHub flavour) with highlighted code. Raw HTML in the text is
 * shown as text, never rendered, and react-markdown drops `javascript:` links.
 */
export const ChatMarkdown = memo(function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="atrium-md">
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeHighlight]}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
});
