import type { z } from 'zod';
import type { adminAppConfigResponse, appConfigResponse } from './accounts.answers';

/** Answer of `app/config` (DESIGN 5). */
export type AppConfigResponse = z.infer<typeof appConfigResponse>;
export type AdminAppConfigResponse = z.infer<typeof adminAppConfigResponse>;
