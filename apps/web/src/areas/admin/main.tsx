import { TokenKey } from '@atrium/shared/limits';
import { mountArea } from '@/components/mount-area';
import { getRoots } from '@/lib/urls';
import { createAdminRouter } from './routes';
import '@/styles.css';

mountArea({
  baseUrl: getRoots().adminRoot,
  tokenKey: TokenKey.admin,
  createRouter: createAdminRouter,
});
