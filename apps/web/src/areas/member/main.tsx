import { TokenKey } from '@atrium/shared/limits';
import { mountArea } from '@/components/mount-area';
import { getRoots } from '@/lib/urls';
import { createMemberRouter } from './routes';
import '@/styles.css';

mountArea({
  baseUrl: getRoots().root,
  tokenKey: TokenKey.member,
  createRouter: createMemberRouter,
});
